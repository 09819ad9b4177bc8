import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClaudeJudge } from '../../src/judges/claude/claude-judge.js';
import type { ContextPack } from '../../src/output/context-pack.js';
import { renderHandover } from '../../src/output/handover.js';
import { loadPrompts } from '../../src/prompts.js';
import { iterativeRetrieve } from '../../src/retrieve.js';
import { mockCarelessModel, testClient, useMockApi } from '../support/msw-anthropic.js';
import { createRepository } from '../support/repository-factory.js';

/**
 * Every kind of secret a hostile review planted, in the shapes that got through before, each
 * checked in all that leaves the machine: every request to the model, the JSON output and the
 * hand-over with whole files. Fake values, assembled at run time so that no scanner mistakes
 * this file for a leak.
 */

const join = (...parts: string[]) => parts.join('');
const base64 = (length: number, seed: string) =>
  Array.from({ length }, (_, index) => {
    const alphabet = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/aBcDeFgHiJkLmNoPqRsTuVwXyZ';
    return alphabet[(index * 7 + seed.charCodeAt(index % seed.length)) % alphabet.length];
  }).join('');

const SECRETS = {
  // Kinds the earlier tests already covered.
  awsKeyId: join('AKIA', 'Z7Q2X9L4M1N8B6V3'),
  awsSecret: join('wJalrXUtnFEMI', '/K7MDENG/bPxRfiCY', 'FAKEFAKEKEY'),
  github: join('ghp_', 'R4nd0mT0k3nV4lu3F0rT3st1ngOnlyXyZ12'),
  stripe: join('sk_', 'live_', '51Hx9FakeKeyForTestsOnly0000aa'),
  anthropic: join('sk-ant-', 'api03-', 'FakeKeyFakeKeyFakeKeyFakeKeyFakeKeyFakeKey-Fake_KeyAA'),
  databaseUrlPassword: join('S3cr3t', 'Pa55w0rd', 'Db'),
  jwt: join('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiJwYXltZW50LWNsaWVudCJ9', '.', 'c2lnbmF0dXJl'),
  privateKey: join('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKB'),
  dotEnv: join('sk_', 'live_', 'EnvFileSecretValue00000001'),
  credentialsJson: join('cr3d', 'Js0nCl13ntS3cr3tV4lu3'),
  // What got through before.
  google: join('AIza', 'SyD4fAkEkEyF0rT3sTs0nLy12345678abcd'),
  notebookApiKey: join('nb_', 'live_', 'N0t3b00kApiK3yV4lu3Xq'),
  notebookAws: join('9f8E7d6C5b4A3', '/n0T3b00kAwSsEcReT', 'kEyVaLuE01'),
  curlBearer: join('3f9a1c7e5b2d', '8f4a6c0e9b1d7f3a'),
  pythonToken: join('9c1f2e3d4c5b', '6a7f8e9d0c1b2a3f'),
  azure: join('Zm9vYmFyYmF6cXV4', 'QXp1cmVTdG9yYWdlS2V5Rm9yVGVzdHM', 'T25seTEyMzQ1Njc4OTA=='),
  lettersPassword: join('CorrectHorse', 'BatteryStapleZebra'),
  envprodToken: join('envprod_', 'QwErTyUiOpAsDfGhJk'),
  productionEnv: join('pr0d', 'EnvFileDeployS3cr3t'),
  blob: base64(320, 'blob'),
  // Lines of a certificate that an excerpt window of five lines cuts out of it.
  certificateLine: base64(64, 'second'),
  certificateOtherLine: base64(64, 'fourth'),
  longLineGithub: join('ghp_', 'L0ngL1n3T0k3nV4lu3F0rT3st1ngXyZ12345'),
  task: join('ghp_', 'T4skT3xtT0k3nV4lu3F0rT3st1ngOnlyAbC9'),
};
const CERTIFICATE = [
  base64(64, 'first'),
  SECRETS.certificateLine,
  base64(64, 'third'),
  SECRETS.certificateOtherLine,
  base64(64, 'fifth'),
  base64(40, 'sixth'),
];

const notebook = JSON.stringify({
  cells: [
    {
      cell_type: 'code',
      source: [
        'import requests\n',
        `api_key = "${SECRETS.notebookApiKey}"\n`,
        `aws_secret_access_key = "${SECRETS.notebookAws}"\n`,
        'def refresh_deploy_token(session):\n',
        '    return requests.post(URL, auth=(api_key, ""))\n',
      ],
    },
  ],
});

const REPOSITORY = {
  '.env': `STRIPE_SECRET_KEY=${SECRETS.dotEnv}\n`,
  'deploy/production.env': `DEPLOY_TOKEN_FALLBACK=${SECRETS.productionEnv}\n`,
  'deploy/credentials.json': `{ "deploy_client_secret": "${SECRETS.credentialsJson}" }\n`,
  'deploy/deploy.sh': [
    '#!/bin/sh',
    '# Refreshes the deploy token.',
    `curl -H "Authorization: Bearer ${SECRETS.curlBearer}" https://deploy.example.com/token`,
    `DB_PASSWORD=CorrectHorse${'BatteryStapleZebra'}`,
    `AUTH_TOKEN=${SECRETS.envprodToken}`,
  ].join('\n'),
  'deploy/client.py': [
    'import requests',
    '',
    'def refresh_deploy_token():',
    `    headers = {"Authorization": "Token ${SECRETS.pythonToken}"}`,
    '    return requests.post(URL, headers=headers)',
  ].join('\n'),
  'deploy/storage.ts': [
    '// The deploy token cache lives in blob storage.',
    `export const storage = 'DefaultEndpointsProtocol=https;AccountName=deploy;AccountKey=${SECRETS.azure};EndpointSuffix=core.windows.net';`,
    `export const mapsKey = '${SECRETS.google}';`,
  ].join('\n'),
  'deploy/analysis.ipynb': notebook,
  'deploy/blob.ts': `// deploy token signing blob\nexport const signingBlob = '${SECRETS.blob}';\n`,
  'deploy/certificate.ts': [
    '// The deploy token certificate.',
    'export const certificate = `',
    ...CERTIFICATE.slice(0, 3),
    'deploy token chain continues',
    ...CERTIFICATE.slice(3),
    '`;',
  ].join('\n'),
  // The token starts 180 characters in: an excerpt's 200-character line would cut it in two.
  'deploy/long-line.ts': `export const deployTokens = ['${'x'.repeat(140)}', '${SECRETS.longLineGithub}'];\n`,
  'deploy/config.ts': [
    'export const deployConfig = {',
    `  awsAccessKeyId: '${SECRETS.awsKeyId}',`,
    `  aws_secret_access_key: '${SECRETS.awsSecret}',`,
    `  githubToken: '${SECRETS.github}',`,
    `  stripeSecretKey: '${SECRETS.stripe}',`,
    `  anthropicKey: '${SECRETS.anthropic}',`,
    `  databaseUrl: 'postgres://deploy:${SECRETS.databaseUrlPassword}@db.internal:5432/deploy',`,
    `  serviceToken: '${SECRETS.jwt}',`,
    '};',
    '// deploy token signing key:',
    join('// -----BEGIN ', 'PRIVATE KEY-----'),
    `// ${SECRETS.privateKey}wVwQi/UEW3O5H0zR4sb8y1Jd3zqYVJ0pW1bX0DcPbQ4x`,
    join('// -----END ', 'PRIVATE KEY-----'),
  ].join('\n'),
};

const TASK = `Fix the deploy token refresh: it fails with the token ${SECRETS.task} since Monday`;

const server = useMockApi();
let pack: ContextPack;
let requests: string[];
let handover: string;
let repository: Awaited<ReturnType<typeof createRepository>>;

beforeAll(async () => {
  repository = await createRepository(REPOSITORY);
  // Queries that ask for everything by name, as a careless model might.
  const received = mockCarelessModel(server, {
    patterns: Object.keys(REPOSITORY),
    keywords: ['deploy', 'token', 'key', 'password', 'authorization', 'blob', 'certificate'],
  });
  const judge = createClaudeJudge({ client: testClient(), prompts: await loadPrompts() });
  pack = await iterativeRetrieve(TASK, {
    root: repository.root,
    judge,
    maxCandidatesPerCycle: 30,
    maxFiles: 30,
    history: false,
  });
  requests = received.map((entry) => JSON.stringify(entry.request));
  handover = await renderHandover(pack, { budgetTokens: 50_000 });
});
afterAll(() => repository.remove());

describe('planted secrets', () => {
  it('sends the model files and the task', () => {
    expect(requests.length).toBeGreaterThan(5);
    expect(pack.files.length).toBeGreaterThanOrEqual(8);
    expect(handover).toContain('Whole file');
  });

  // Any sizeable part counts: a token cut by a clipped line (22 of 40 characters) still leaks.
  const partsOf = (secret: string) => [secret.slice(0, 14), secret.slice(-14)];

  it.each(Object.entries(SECRETS))('never lets %s out, nor a part of it', (_name, secret) => {
    const output = JSON.stringify(pack);
    for (const part of partsOf(secret)) {
      for (const request of requests) expect(request).not.toContain(part);
      expect(output).not.toContain(part);
      expect(handover).not.toContain(part);
    }
  });

  it('says that the task held a secret, and what became of it', () => {
    expect(pack.task).toContain('[REDACTED:github]');
    expect(pack.warnings).toContainEqual(
      expect.stringMatching(/^the task held 1 secret \(github\)/),
    );
  });
});
