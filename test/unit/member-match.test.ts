import { describe, expect, it } from 'vitest';
import { compileKeyword } from '../../src/dispatch/keyword.js';
import { matchFile } from '../../src/dispatch/match.js';
import { analyzeSource } from '../../src/repository/source-file.js';

const COARSEN = [
  'class Rolling:',
  '    def construct(self, window):',
  '        return window',
  '',
  'class Coarsen:',
  '    def construct(self, window_dim):',
  '        return window_dim',
].join('\n');

const WITHOUT_OWNER = [
  'def coarsen(obj):',
  '    return obj',
  '',
  'def construct(obj):',
  '    return obj',
].join('\n');

const MODULE = ['def load_dataset(name):', '    return name'].join('\n');

/** The lines where a file defines the member a keyword names, as exact definitions. */
function memberLines(path: string, text: string, keyword: string): number[] {
  const pattern = compileKeyword(keyword);
  if (!pattern) throw new Error(`\`${keyword}\` did not compile`);
  const [match] = matchFile(analyzeSource(path, text), [{ ...pattern, weight: 1 }]);
  return (match?.definitions ?? []).filter((definition) => definition.exact).map((d) => d.line);
}

describe('a member written with its owner', () => {
  it.each([
    ['Coarsen.construct', 'coarsen', 'construct', true],
    ['ds.Coarsen.construct', 'coarsen', 'construct', true],
    ['Model::save', 'model', 'save', true],
    ['String#split', 'string', 'split', true],
    ['$cell->getValue', 'cell', 'getvalue', false],
    ['tutorial.load_dataset', 'tutorial', 'loaddataset', false],
  ])('%s is the member %s of %s', (keyword, owner, name, ownerIsType) => {
    expect(compileKeyword(keyword)?.member).toEqual({ owner, name, ownerIsType });
  });

  it.each(['np.array', 'self.items', 'this.state', 'console.log', 'a.b c', 'Coarsen'])(
    '%s names no member',
    (keyword) => {
      expect(compileKeyword(keyword)?.member).toBeUndefined();
    },
  );

  it("counts where the owner defines it, not another class's member of that name", () => {
    expect(memberLines('windows.py', COARSEN, 'Coarsen.construct')).toEqual([6]);
    expect(memberLines('windows.py', COARSEN, 'Rolling.construct')).toEqual([2]);
  });

  it('counts nowhere that does not define the owner', () => {
    expect(memberLines('helpers.py', WITHOUT_OWNER, 'Coarsen.construct')).toEqual([]);
  });

  it("counts in the owner's own module, and a lower-case owner only as a module", () => {
    expect(memberLines('tablib/tutorial.py', MODULE, 'tutorial.load_dataset')).toEqual([1]);
    expect(memberLines('pkg/tutorial/__init__.py', MODULE, 'tutorial.load_dataset')).toEqual([1]);
    expect(memberLines('tablib/other.py', MODULE, 'tutorial.load_dataset')).toEqual([]);
    expect(memberLines('helpers.py', WITHOUT_OWNER, 'coarsen.construct')).toEqual([]);
  });
});

describe('a member outside an indented class', () => {
  it.each([
    [
      'a Go receiver',
      'items.go',
      'func (s *Store) Save(item Item) error {\n\treturn nil\n}',
      'Store.Save',
    ],
    [
      'a Rust impl block',
      'items.rs',
      'pub struct Other;\n\nimpl Store {\n    pub fn save(&self) {}\n}',
      'Store::save',
    ],
    [
      'a brace on its own line',
      'Items.cs',
      'public class Store\n{\n    public void Save()\n    {\n    }\n}',
      'Store.Save',
    ],
  ])('%s', (_name, path, text, keyword) => {
    expect(memberLines(path, text, keyword)).not.toEqual([]);
  });
});
