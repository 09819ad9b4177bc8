import { describe, expect, it } from 'vitest';
import { lineAfterLicenseHeader } from '../../src/dispatch/license-header.js';

const MIT = ['Copyright (c) 2024 Someone', 'Permission is hereby granted, free of charge…'];

describe('lineAfterLicenseHeader', () => {
  it.each([
    ['a file with no comment', ['import os', 'x = 1'], 1],
    ['a module doc comment, which says what the file is for', ['/** Parses dates. */', 'x'], 1],
    ['a `#` license block', [...MIT.map((line) => `# ${line}`), '', 'import os'], 4],
    ['a `//` license block', [...MIT.map((line) => `// ${line}`), 'package main'], 3],
    [
      'a `/* */` license block, then the module doc comment kept',
      ['/*', ...MIT.map((line) => ` * ${line}`), ' */', '', '/** Parses dates. */', 'x'],
      6,
    ],
    ['a shebang, then a license block', ['#!/usr/bin/env python', `# ${MIT[0]}`, 'x = 1'], 3],
    ['a shebang and no license', ['#!/bin/sh', 'echo hi'], 1],
    ["PHP's opening tag, then a license block", ['<?php', '/*', ` * ${MIT[0]}`, ' */', 'x'], 5],
    [
      'two license blocks in a row',
      ['// SPDX-License-Identifier: MIT', '', `// ${MIT[0]}`, '', 'fn main() {}'],
      5,
    ],
    ['`#include` after a license, which is code', [`// ${MIT[0]}`, '#include <stdio.h>'], 2],
    ['`#[derive]` is code, not a comment', ['#[derive(Debug)]', 'struct A;'], 1],
    ['an HTML comment license', ['<!-- Licensed under MIT -->', '<html>'], 2],
    ['a file that is all license', MIT.map((line) => `# ${line}`), 1],
    ['an unclosed block comment', ['/* Copyright', 'and on'], 1],
    ['an empty file', [], 1],
  ])('%s', (_name, lines, expected) => {
    expect(lineAfterLicenseHeader(lines)).toBe(expected);
  });
});
