import { describe, expect, it } from 'vitest';
import { withoutVersionDumps } from '../../src/text/version-dumps.js';

const SHOW_VERSIONS = [
  'INSTALLED VERSIONS',
  '------------------',
  'commit: None',
  'python: 3.8.2 | packaged by conda-forge | (default, Apr 24 2020, 08:20:52)',
  '[GCC 7.3.0]',
  'python-bits: 64',
  'OS: Linux',
  'LC_ALL: None',
  'libhdf5: 1.10.6',
  '',
  'pandas: 1.0.4',
  'numpy: 1.18.4',
  'PseudoNetCDF: None',
];
const PIP_LIST = [
  'Package    Version',
  '---------- -------',
  ...'attrs cftime dask numpy pandas pip scipy zarr'
    .split(' ')
    .map((name) => `${name.padEnd(10)} 1.2.${name.length}`),
];

describe('withoutVersionDumps', () => {
  it.each<[string, string[], string[]]>([
    [
      'drops a show_versions dump between the prose around it',
      [
        'Title',
        'The result drops every attribute it had.',
        ...SHOW_VERSIONS,
        'It worked before the upgrade to the new version.',
      ],
      [
        'Title',
        'The result drops every attribute it had.',
        'It worked before the upgrade to the new version.',
      ],
    ],
    [
      'drops a pip list inside a fence, and keeps the fence',
      ['Title', '```', ...PIP_LIST, '```', 'Then the merge keeps no attributes at all.'],
      ['Title', '```', '```', 'Then the merge keeps no attributes at all.'],
    ],
    [
      'keeps a short list of fields',
      ['Title', 'OS: Linux', 'python: 3.8', 'numpy: 1.18'],
      ['Title', 'OS: Linux', 'python: 3.8', 'numpy: 1.18'],
    ],
    [
      'keeps configuration whose values are words',
      [
        'Title',
        ...'title url baseurl theme permalink markdown highlighter sass plugins'
          .split(' ')
          .map((key) => `${key}: my-${key}`),
      ],
      [
        'Title',
        ...'title url baseurl theme permalink markdown highlighter sass plugins'
          .split(' ')
          .map((key) => `${key}: my-${key}`),
      ],
    ],
    [
      'keeps a printed table of numbers',
      ['Title', '   a  b', ...Array.from({ length: 10 }, (_, row) => `${row}  ${row}  ${row * 2}`)],
      ['Title', '   a  b', ...Array.from({ length: 10 }, (_, row) => `${row}  ${row}  ${row * 2}`)],
    ],
  ])('%s', (_name, lines, expected) => {
    expect(withoutVersionDumps(lines)).toEqual(expected);
  });
});
