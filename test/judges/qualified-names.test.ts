import { describe, expect, it } from 'vitest';
import { leafNames, qualifiedModules } from '../../src/judges/heuristic/qualified-names.js';

const PATHS = [
  'tablib/core/dataset.py',
  'tablib/core/__init__.py',
  'tablib/backends/api.py',
  'lib/blog/readers/data_reader.rb',
  'src/Spreadsheet/Reader/Ods/FormulaTranslator.php',
  'runtime/src/io/util.rs',
  'skylib/io/ascii/core.py',
  'skylib/units/format/core.py',
  'skylib/modeling/format/core.py',
  'docs/configuration.md',
];

describe('qualifiedModules', () => {
  it.each<[string, string, string[]]>([
    [
      'a Python dotted name, alias and all',
      '`tl.core.dataset.DataVariables` breaks',
      ['tablib/core/dataset.py'],
    ],
    [
      'a Ruby constant, snake-cased on disk',
      'Blog::Readers::DataReader skips it',
      ['lib/blog/readers/data_reader.rb'],
    ],
    [
      'a PHP namespace',
      'use Spreadsheet\\Reader\\Ods\\FormulaTranslator;',
      ['src/Spreadsheet/Reader/Ods/FormulaTranslator.php'],
    ],
    ['a Rust path', 'see `crate::io::util::copy`', ['runtime/src/io/util.rs']],
    [
      'the one the parts before decide between',
      'from skylib.units.format.core import X',
      ['skylib/units/format/core.py'],
    ],
    ['nothing where the parts cannot decide', 'format.core is slow', []],
    ['nothing for a lone word', 'the dataset is empty', []],
    ['nothing for a package directory', 'import tablib.core', []],
    ['nothing from a link', 'read https://example.com/docs/configuration/ first', []],
  ])('%s', (_name, task, expected) => {
    expect(qualifiedModules(task, PATHS)).toEqual(expected);
  });
});

describe('leafNames', () => {
  it('keeps the ends of a qualified name and drops its middle', () => {
    expect([...leafNames('`tl.core.dataset` and advancedFormat')].sort()).toEqual([
      'advancedformat',
      'and',
      'dataset',
      'tl',
    ]);
  });
});
