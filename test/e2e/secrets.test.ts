import { describe, expect, it } from 'vitest';
import { createClaudeJudge } from '../../src/judges/claude/claude-judge.js';
import { loadPrompts } from '../../src/prompts.js';
import { iterativeRetrieve } from '../../src/retrieve.js';
import { mockCarelessModel, testClient, useMockApi } from '../support/msw-anthropic.js';
import { createRepository } from '../support/repository-factory.js';

// Fake secrets, assembled at run time so that no scanner mistakes this file for a leak.
const join = (...parts: string[]) => parts.join('');
const SECRETS = {
  awsKeyId: join('AKIA', 'Z7Q2X9L4M1N8B6V3'),
  awsSecret: join('wJalrXUtnFEMI', '/K7MDENG/bPxRfiCY', 'FAKEFAKEKEY'),
  github: join('ghp_', 'R4nd0mT0k3nV4lu3F0rT3st1ngOnlyXyZ12'),
  stripe: join('sk_', 'live_', '51Hx9FakeKeyForTestsOnly0000aa'),
  anthropic: join(
    'sk-ant-',
    'api03-',
    'FakeKeyFakeKeyFakeKeyFakeKeyFakeKeyFakeKeyFakeKey-FakeKeyFakeKey_FakeKeyFakeKeyAA',
  ),
  databasePassword: join('S3cr3t', 'Pa55w0rd', 'Db'),
  jwt: join(
    'eyJhbGciOiJIUzI1NiJ9',
    '.',
    'eyJzdWIiOiJwYXltZW50LWNsaWVudCJ9',
    '.',
    'c2lnbmF0dXJlLWZvci10ZXN0cy1vbmx5',
  ),
  privateKeyBody: join('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKB'),
};
const PRIVATE_KEY = [
  join('-----BEGIN ', 'PRIVATE KEY-----'),
  `${SECRETS.privateKeyBody}wVwQi/UEW3O5H0zR4sb8y1Jd3zqYVJ0pW1bX0DcPbQ4x`,
  'lQ2Oa6oY8Y0qH5yqTbq9fdSPL1kN3xKj8mW2Zr6aP0gH4tE7vB9nM1cX5zQ8wR2y',
  join('-----END ', 'PRIVATE KEY-----'),
].join('\n');

const REPOSITORY = {
  '.env': `STRIPE_SECRET_KEY=${SECRETS.stripe}\nANTHROPIC_API_KEY=${SECRETS.anthropic}\n`,
  'deploy/payment-client.pem': `${PRIVATE_KEY}\n`,
  'deploy/id_rsa': `${PRIVATE_KEY}\n`,
  'deploy/credentials.json': `{ "payment_client_secret": "${SECRETS.stripe}" }\n`,
  'src/payment/config.ts': [
    'export const paymentConfig = {',
    `  awsAccessKeyId: '${SECRETS.awsKeyId}',`,
    `  aws_secret_access_key: '${SECRETS.awsSecret}',`,
    `  githubToken: '${SECRETS.github}',`,
    `  stripeSecretKey: '${SECRETS.stripe}',`,
    `  databaseUrl: 'postgres://payments:${SECRETS.databasePassword}@db.internal:5432/payments',`,
    `  serviceToken: '${SECRETS.jwt}',`,
    '};',
  ].join('\n'),
  'src/payment/payment-client.ts': [
    "import { paymentConfig } from './config.js';",
    '',
    '/** Refreshes the payment client token before it expires. */',
    'export function refreshPaymentToken(now: number): string {',
    `  const fallbackKey = '${SECRETS.stripe}';`,
    '  return paymentConfig.stripeSecretKey ?? fallbackKey;',
    '}',
    '',
    `// ${PRIVATE_KEY.split('\n').join('\n// ')}`,
  ].join('\n'),
  'src/orders/orders.ts': 'export function placeOrder() {\n  return paymentToken();\n}\n',
};

const server = useMockApi();

async function claudeRun(allowSecretFiles: string[] = []) {
  const repository = await createRepository(REPOSITORY);
  // Queries that ask for everything secret-looking by name, as a careless model might.
  const received = mockCarelessModel(server, {
    patterns: ['.env', 'deploy/credentials.json'],
    keywords: ['payment', 'token', 'secret', 'key', 'password', 'stripe'],
  });
  try {
    const judge = createClaudeJudge({ client: testClient(), prompts: await loadPrompts() });
    const pack = await iterativeRetrieve('Fix the payment client token refresh', {
      root: repository.root,
      judge,
      allowSecretFiles,
    });
    return {
      pack,
      bodies: received.map((entry) => JSON.stringify(entry.request)),
      evaluated: received.filter((entry) => entry.kind === 'evaluate').map((entry) => entry.path),
    };
  } finally {
    await repository.remove();
  }
}

describe('nothing secret leaves the machine', () => {
  it('never sends a secret file, and redacts every secret inside the excerpts it sends', async () => {
    const { pack, bodies, evaluated } = await claudeRun();
    expect(evaluated).toEqual(
      expect.arrayContaining(['src/payment/config.ts', 'src/payment/payment-client.ts']),
    );
    expect(evaluated.filter((path) => /\.env|\.pem|id_rsa|credentials/.test(path))).toEqual([]);
    expect(bodies.length).toBeGreaterThan(2);
    for (const body of bodies) {
      for (const [name, secret] of Object.entries(SECRETS))
        expect(body, name).not.toContain(secret);
    }
    expect(pack.stats.skipped.secret).toBe(4);
    expect(pack.stats.redactions).toBeGreaterThanOrEqual(Object.keys(SECRETS).length);
    const output = JSON.stringify(pack);
    for (const secret of Object.values(SECRETS)) expect(output).not.toContain(secret);
  });

  it('sends an explicitly included secret file only with its secrets redacted', async () => {
    const { bodies, evaluated } = await claudeRun(['.env']);
    expect(evaluated).toContain('.env');
    for (const body of bodies) {
      for (const [name, secret] of Object.entries(SECRETS))
        expect(body, name).not.toContain(secret);
    }
  });
});
