import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/dispatch/dispatch.js';
import { MAX_FINDINGS, redactSecrets } from '../../src/redaction/redact.js';
import { openWorkspace } from '../../src/repository/workspace.js';
import { querySchema } from '../../src/contracts/query.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

/**
 * Fake but well-formed secrets. Each is assembled at run time, so that this file holds no
 * contiguous token for a secret scanner (GitHub push protection, secretlint) to trip over.
 */
const join = (...parts: string[]) => parts.join('');
const BASE62 = 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5kL7nP9rS1uV3xZ5';
const body = (length: number) => BASE62.repeat(4).slice(0, length);

const AWS_ACCESS_KEY_ID = join('AKIA', 'QWERTYUIOPASDFGH');
const AWS_SECRET_ACCESS_KEY = join('Zx9Qp2Lm7Rt4Vb8Nc3Kd', '6Wf1Hj5Gs0Ty2Ue4Ia7O');
const GITHUB_TOKEN = join('ghp', '_', body(36));
const GITLAB_TOKEN = join('glpat', '-', body(20));
const SLACK_TOKEN = join('xoxb', '-123456789012-1234567890123-', body(24));
const STRIPE_KEY = join('sk', '_live_', body(24));
const ANTHROPIC_KEY = join('sk-ant', '-api03-', body(93), 'AA');
const POSTGRES_URL = join('postgres://app:', 's3cr3tPassw0rd', '@db.internal:5432/app');
const JWT = join(
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  '.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ',
  '.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
);

const { privateKey: RSA_PEM } = generateKeyPairSync('rsa', {
  modulusLength: 1024,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
});
const { privateKey: EC_PEM } = generateKeyPairSync('ec', {
  namedCurve: 'P-256',
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const KEY_LINES = RSA_PEM.trimEnd().split('\n');
const KEY_BODY = KEY_LINES.slice(1, -1);

/** Lines as an excerpt shows them: right-aligned numbers, `| `, the line. */
function numbered(lines: readonly string[], first: number): string {
  return lines.map((line, index) => `${String(first + index).padStart(3)}| ${line}`).join('\n');
}

afterEach(async () => {
  await removeTempTrees();
});

const GOOGLE_KEY = ['AIza', 'SyD4fAkEkEyF0rT3sTs0nLy12345678abcd'].join('');
const AZURE_KEY = [
  'Zm9vYmFyYmF6cXV4',
  'QXp1cmVTdG9yYWdlS2V5Rm9yVGVzdHM',
  'T25seTEyMzQ1Njc4OTA==',
].join('');
const BLOB = 'Ab9Cd8Ef7Gh6Ij5Kl4Mn3Op2Qr1St0Uv+Wx/Yz'.repeat(4);

describe('redactSecrets', () => {
  it.each<[kind: string, before: string, secret: string, after: string, rule: string]>([
    ['an AWS access key ID', 'aws_access_key_id = "', AWS_ACCESS_KEY_ID, '"\nregion = x', 'aws'],
    ['an AWS secret access key', 'aws_secret_access_key = "', AWS_SECRET_ACCESS_KEY, '"\n', 'aws'],
    ['a GitHub token', "const token = '", GITHUB_TOKEN, "';", 'github'],
    ['a GitLab token', 'GITLAB_TOKEN=', GITLAB_TOKEN, '\nNEXT=1', 'gitlab'],
    ['a Slack bot token', "slack: { bot: '", SLACK_TOKEN, "' },", 'slack'],
    ['a Stripe secret key', 'const stripe = new Stripe("', STRIPE_KEY, '");', 'stripe'],
    ['an Anthropic API key', "new Anthropic({ apiKey: '", ANTHROPIC_KEY, "' });", 'anthropic'],
    ['a PEM private key', 'const key = `', EC_PEM.trimEnd(), '`;\nexport {};', 'privatekey'],
    [
      'a postgres URL with a password',
      'DATABASE_URL="',
      POSTGRES_URL,
      '";\n',
      'database-connection-string',
    ],
    ['a JWT', 'Authorization: Bearer ', JWT, '\nAccept: */*', 'jwt'],
    ['a password assignment', 'password = "', 'hunter2hunter2', '"\n', 'generic'],
    [
      'a password in a redis URL',
      'url: redis://:',
      'hunter2hunter2',
      '@cache:6379/0',
      'url-password',
    ],
    ['a quoted JSON secret', '{ "client_secret": "', 'x7Kq9mZ2pL4vR8tW', '" }', 'generic'],
    ['a bare YAML password', '  password: ', 'Hunter2Hunter2!', '\n  user: app', 'generic'],
    ['a .env-style secret', 'JWT_SECRET=', 'c2VjcmV0LXZhbHVlLTEyMw==', '\n', 'generic'],
    ['a Bearer token value', "headers: { token: 'Bearer ", 'a1b2c3d4e5f6g7h8', "' }", 'generic'],
    // What a hostile review found leaving the machine before.
    ['a Google API key', "const mapsKey = '", GOOGLE_KEY, "';", 'google'],
    ['a short Anthropic key', "const key = '", `sk-ant-${'x1'.repeat(12)}`, "';", 'anthropic'],
    [
      'an Azure account key',
      'AccountName=acct;AccountKey=',
      AZURE_KEY,
      ';EndpointSuffix=x',
      'azure',
    ],
    [
      'a Bearer token in a curl line',
      'curl -H "Authorization: Bearer ',
      '3f9a1c7e5b2d8f4a6c0e9b1d7f3a',
      '" https://api.example.com',
      'authorization',
    ],
    [
      'a Token in a Python dictionary',
      'headers = {"Authorization": "Token ',
      '9c1f2e3d4c5b6a7f8e9d0c1b2a3f',
      '"}',
      'authorization',
    ],
    [
      'a default after a JavaScript environment lookup',
      'const apiKey = process.env.API_KEY || "',
      'hJ8kL2mN5pQ9rS3tV6wY1zA4',
      '";',
      'generic',
    ],
    [
      "a default in Python's environ.get",
      'SECRET_KEY = os.environ.get("SECRET_KEY", "',
      'Rt5Yu8Io2Pa6Sd9Fg3Hj7Kl1',
      '")',
      'generic',
    ],
    [
      'a default in getenv',
      "API_TOKEN = os.getenv('API_TOKEN', '",
      'Qw3Er5Ty7Ui9Op1As3Df5Gh',
      "')",
      'generic',
    ],
    [
      'a header set by index',
      'headers["Authorization"] = "Bearer ',
      '7d2e9a4c1f8b3e6d0a5c9f2b',
      '";',
      'authorization',
    ],
    [
      'a header set by a call',
      "res.setHeader('Authorization', 'Basic ",
      'dXNlcjpwYXNzd29yZDEyMw==',
      "');",
      'authorization',
    ],
    [
      'a header whose scheme and credentials are joined',
      "{ Authorization: 'Basic ' + '",
      'dXNlcjpUb2tlbkV4cGlyeVBhc3M=',
      "' }",
      'authorization',
    ],
    [
      'a header in a template literal',
      '{ authorization: `Bearer ',
      'b4c8e1f9a2d7c3e6f0a1b5d9',
      '` }',
      'authorization',
    ],
    [
      'a letters-only env password',
      'DB_PASSWORD=',
      'CorrectHorseBatteryStapleZebra',
      '\n',
      'generic',
    ],
    ['an env token of letters', 'AUTH_TOKEN=', 'envprod_QwErTyUiOpAsDfGhJk', '\n', 'generic'],
    ['a long base64 blob', "const blob = '", BLOB, "';", 'base64'],
  ])('redacts %s and keeps the text around it', async (_kind, before, secret, after, rule) => {
    const result = await redactSecrets(`${before}${secret}${after}`);
    // A secret over several lines leaves its marker on each, so the lines keep their numbers.
    const marker = secret
      .split('\n')
      .map(() => `[REDACTED:${rule}]`)
      .join('\n');
    expect(result.text).toBe(`${before}${marker}${after}`);
    expect(result.redactions).toEqual([{ rule, count: 1 }]);
  });

  it.each([
    ['a whole numbered key', numbered(KEY_LINES, 10)],
    ['a key cut by an excerpt window', `${numbered(KEY_LINES.slice(0, 4), 1)}\n…`],
    [
      'a key shown in two windows',
      `${numbered(KEY_LINES.slice(0, 3), 1)}\n…\n${numbered(KEY_LINES.slice(8), 9)}`,
    ],
    ['the end of a key', numbered(KEY_LINES.slice(-4), 20)],
    ['the middle of a key', numbered(KEY_BODY.slice(2, 7), 4)],
    ['a key as a JSON string', `"private_key": "${RSA_PEM.replaceAll('\n', '\\n')}",`],
    ['a JSON key cut short', `"private_key": "${RSA_PEM.replaceAll('\n', '\\n').slice(0, 150)}…`],
  ])('leaves no line of %s', async (_form, text) => {
    const result = await redactSecrets(`  1| export const keys = {\n${text}\n 99| };`);
    for (const line of KEY_BODY) expect(result.text).not.toContain(line.slice(0, 20));
    expect(result.text).toMatch(/\[REDACTED:(privatekey|base64)\]/);
    expect(result.text.startsWith('  1| export const keys = {\n')).toBe(true);
    expect(result.text.endsWith('\n 99| };')).toBe(true);
  });

  it.each([
    'const token = getToken();',
    'password: string;',
    'token: string | undefined,',
    'const password = req.body.password;',
    'apiKey: process.env.ANTHROPIC_API_KEY!,',
    'secret: config.jwtSecret,',
    'accessToken: accessToken,',
    'password: PasswordPolicy;',
    'const headers = { token: await tokens.issue(user) };',
    "password: '${DB_PASSWORD}',",
    'api_key = "<your-api-key>"',
    'DB_PASSWORD: $DB_PASSWORD',
    'max_tokens = 1024',
    'tokenizer = "whitespace-tokenizer"',
    'password_hash = hash(password)',
    "if (token === '') return;",
    'token:\n  valueFrom: secretKeyRef',
    // Digests name public content (lock files, downloads); they are not secrets.
    'checksum = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
    '"integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="',
    'fetch("https://example.com:8443/api/v1/users")',
    // Templates of credentials, and what only looks like a secret.
    'headers = {"Authorization": f"Bearer {token}"}',
    'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
    'const headers = { Authorization: `Bearer ${token}` };',
    'TOKEN_TYPE = "Bearer"',
    'DB_PASSWORD=${DB_PASSWORD}',
    'SESSION_SECRET: process.env.SESSION_SECRET',
    `const logo = "data:image/png;base64,${BLOB}";`,
    `const digest = "${'0123456789abcdef'.repeat(8)}";`,
  ])('leaves ordinary code alone: %s', async (text) => {
    expect(await redactSecrets(text)).toEqual({ text, redactions: [] });
  });

  // Before: `\"` in a notebook's JSON hid the quotes the assignment rule looks for.
  it('finds secrets inside JSON strings, as in a notebook', async () => {
    const cell = JSON.stringify({
      source: [
        `api_key = "${'nb_live_N0t3b00kK3y'}"\n`,
        `aws_secret_access_key = "${AWS_SECRET_ACCESS_KEY}"\n`,
      ],
    });
    const result = await redactSecrets(cell);
    expect(result.text).not.toContain('nb_live_N0t3b00kK3y');
    expect(result.text).not.toContain(AWS_SECRET_ACCESS_KEY);
    expect(JSON.parse(result.text)).toEqual({
      source: [
        'api_key = "[REDACTED:generic]"\n',
        expect.stringMatching(/^aws_secret_access_key = "\[REDACTED:\w+\]"\n$/),
      ],
    });
  });

  it('keeps the lines of a text: a multi-line secret is a marker on each of its lines', async () => {
    const text = `const key = \`${EC_PEM.trimEnd()}\`;\nexport const after = 1;`;
    const result = await redactSecrets(text);
    expect(result.text.split('\n')).toHaveLength(text.split('\n').length);
    expect(result.text.split('\n').at(-1)).toBe('export const after = 1;');
  });

  it('counts redactions per rule, one for each secret shown', async () => {
    const text = [
      `const first = '${GITHUB_TOKEN}';`,
      `const second = '${GITHUB_TOKEN.replace('aB3', 'Zq8')}';`,
      `Authorization: Bearer ${JWT}`,
      'password = "hunter2hunter2"',
      'DB_PASSWORD=Zx9Qp2Lm7Rt4',
      // Named and generic at once: one redaction, labelled by the named rule.
      `GITHUB_TOKEN="${GITHUB_TOKEN}"`,
    ].join('\n');
    const result = await redactSecrets(text);
    expect(result.redactions).toEqual([
      { rule: 'generic', count: 2 },
      { rule: 'github', count: 3 },
      { rule: 'jwt', count: 1 },
    ]);
    expect(result.text.match(/\[REDACTED:[a-z-]+\]/g)).toHaveLength(6);
    expect(result.text).toContain('GITHUB_TOKEN="[REDACTED:github]"');
  });

  it('redacts secrets side by side on one line', async () => {
    const result = await redactSecrets(
      `${AWS_ACCESS_KEY_ID}:${AWS_SECRET_ACCESS_KEY.slice(0, 8)} ${STRIPE_KEY}`,
    );
    expect(result.text).toBe(
      `[REDACTED:aws]:${AWS_SECRET_ACCESS_KEY.slice(0, 8)} [REDACTED:stripe]`,
    );
  });

  it('ignores secretlint-disable comments in the text', async () => {
    const text = `// secretlint-disable-next-line\nconst token = '${GITHUB_TOKEN}';`;
    expect((await redactSecrets(text)).text).toBe(
      "// secretlint-disable-next-line\nconst token = '[REDACTED:github]';",
    );
  });

  it.each([
    ['//', 'a TypeScript comment'],
    ['#', 'a shell or YAML comment'],
    [' *', 'a block comment'],
    ['--', 'an SQL comment'],
  ])('redacts a private key pasted into %s (%s), numbered as in an excerpt', async (marker) => {
    const commented = KEY_LINES.map((line) => `${marker} ${line}`);
    const { text } = await redactSecrets(numbered(commented, 10));
    for (const line of KEY_BODY) expect(text).not.toContain(line);
  });

  it('leaves no performance marks behind, so a long-lived process does not slow down', async () => {
    const before = performance.getEntriesByType('mark').length;
    for (let round = 0; round < 20; round++) await redactSecrets(`token = "${GITHUB_TOKEN}"`);
    expect(performance.getEntriesByType('mark').length).toBe(before);
  });

  it(`redacts a text of more than ${MAX_FINDINGS} secrets whole, line by line`, async () => {
    // Each line's password differs, so that no two findings are alike.
    const lines = (count: number) =>
      Array.from({ length: count }, (_, at) => `password = "Zq8xLm3Rt${at}Vb00"`);
    const many = lines(MAX_FINDINGS + 1).join('\n');
    const whole = await redactSecrets(many);
    expect(whole.text.split('\n')).toEqual(lines(MAX_FINDINGS + 1).map(() => '[REDACTED:many]'));
    expect(whole.redactions).toEqual([{ rule: 'many', count: MAX_FINDINGS + 1 }]);
    // Up to the bound, each secret is its own redaction, and the rest of each line is kept.
    const within = await redactSecrets(lines(MAX_FINDINGS).join('\n'));
    expect(within.redactions).toEqual([{ rule: 'generic', count: MAX_FINDINGS }]);
    expect(within.text.split('\n').every((line) => line.startsWith('password = '))).toBe(true);
  });

  it.each([
    ['\r\n', 'Windows'],
    ['\r', 'old Mac'],
  ])('redacts a private key whose lines end in %j (%s), every line of its body', async (end) => {
    // A key's body as base64 lines of 64 characters (random, so no rule knows its structure).
    const base64 = randomBytes(300).toString('base64');
    const body = Array.from({ length: Math.ceil(base64.length / 64) }, (_, at) =>
      base64.slice(at * 64, at * 64 + 64),
    );
    const key = ['-----BEGIN PRIVATE KEY-----', ...body, '-----END PRIVATE KEY-----'];
    const text = ['// token expiry', 'const KEY = `', ...key, '`;', ''].join(end);
    const redacted = await redactSecrets(text);
    for (const line of body) expect(redacted.text).not.toContain(line);
    expect(redacted.text).toContain('// token expiry');
  });

  it('keeps what an environment lookup falls back to when it is a path, a URL or not secret', async () => {
    for (const line of [
      'token = process.env.TOKEN_PATH || "/run/secrets/token"',
      'const apiUrl = process.env.API_URL || "https://api.example.com/v1"',
      'SECRET_KEY = os.environ.get("SECRET_KEY", "${SECRET_KEY}")',
    ])
      expect((await redactSecrets(line)).text).toBe(line);
  });

  it('returns an empty text as it is', async () => {
    expect(await redactSecrets('')).toEqual({ text: '', redactions: [] });
  });
});

describe('dispatch', () => {
  it('redacts every candidate excerpt and counts the redactions', async () => {
    const root = await createTempTree({
      'src/github-client.ts': [
        "import { Octokit } from '@octokit/rest';",
        `const GITHUB_TOKEN = '${GITHUB_TOKEN}';`,
        'export const github = new Octokit({ auth: GITHUB_TOKEN });',
      ].join('\n'),
      'src/github-app.ts': 'export const githubAppName = "release-bot";\n',
    });
    const workspace = await openWorkspace(root, { maxFileBytes: 10_000, maxFiles: 100 });
    const query = querySchema.parse({ keywords: ['github'] });
    const { candidates } = await dispatch(query, workspace, {
      skip: new Set(),
      limit: 10,
      excerptTokens: 600,
      excerpts: true,
    });
    const byPath = Object.fromEntries(candidates.map((candidate) => [candidate.path, candidate]));
    expect(byPath['src/github-client.ts']?.excerpt).toContain(
      "2| const GITHUB_TOKEN = '[REDACTED:github]';",
    );
    expect(byPath['src/github-client.ts']?.redactions).toBe(1);
    expect(byPath['src/github-app.ts']?.redactions).toBe(0);
    for (const candidate of candidates) expect(candidate.excerpt).not.toContain(GITHUB_TOKEN);
  });
});
