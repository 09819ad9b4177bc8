import { describe, expect, it } from 'vitest';
import { cjkPhrases } from '../../src/text/cjk.js';
import { compileKeyword } from '../../src/dispatch/keyword.js';

describe('cjkPhrases: Chinese, Japanese and Korean text is searched as written', () => {
  it.each<[string, string, string[], string[]]>([
    [
      'a Chinese quoted message',
      '调用 format 时报错「无效的日期」',
      ['无效的日期'],
      ['调用', '时报错'],
    ],
    [
      'a Japanese message in 『』',
      'エラー『トークンが無効です』が出る',
      ['トークンが無効です'],
      ['エラー', 'が出る'],
    ],
    ['a message in curly quotes', '提示 “请求失败” 后退出', ['请求失败'], ['提示', '后退出']],
    [
      'Korean words',
      '로그인 후 세션이 만료되지 않습니다',
      [],
      ['로그인', '세션이', '만료되지', '않습니다'],
    ],
    [
      'not a one-character run, nor a clause too long to recur in code',
      '在 使用环境变量时代理没有被忽略',
      [],
      [],
    ],
    ['nothing from English', 'Fix the "token expiry" bug', [], []],
  ])('%s', (_name, text, quoted, runs) => {
    expect(cjkPhrases(text)).toEqual({ quoted, runs });
  });

  it('takes at most six, quoted ones first', () => {
    const found = cjkPhrases('「第一个」 二二 三三 四四 五五 六六 七七 八八');
    expect([...found.quoted, ...found.runs]).toEqual([
      '第一个',
      '二二',
      '三三',
      '四四',
      '五五',
      '六六',
    ]);
  });
});

describe('compileKeyword: such text is a phrase with no words to split', () => {
  it.each(['无效的日期', 'トークン', '세션'])('%s', (keyword) => {
    expect(compileKeyword(keyword)).toMatchObject({ form: 'phrase', phrase: keyword, words: [] });
  });
});

describe('a task in Chinese finds the code that prints its message', () => {
  it('ranks the file with the quoted message first', async () => {
    const { iterativeRetrieve } = await import('../../src/index.js');
    const { createTempTree, removeTempTrees } = await import('../support/temp-tree.js');
    const root = await createTempTree({
      'src/validate/date.ts': [
        'export function checkDate(value: string): void {',
        "  if (Number.isNaN(Date.parse(value))) throw new Error('无效的日期: ' + value);",
        '}',
      ].join('\n'),
      'src/format/number.ts':
        'export function formatNumber(value: number): string {\n  return String(value);\n}\n',
      'src/format/date.ts':
        'export function formatDate(value: Date): string {\n  return value.toISOString();\n}\n',
    });
    try {
      const pack = await iterativeRetrieve('保存表单时报错「无效的日期」，输入是 2024-02-30', {
        root,
        history: false,
      });
      expect(pack.files[0]?.path).toBe('src/validate/date.ts');
    } finally {
      await removeTempTrees();
    }
  });
});
