import { afterEach, describe, expect, it } from 'vitest';
import { createSecretFileFilter, SECRET_FILE_PATTERNS } from '../../src/repository/secret-files.js';
import { openWorkspace } from '../../src/repository/workspace.js';
import type { WorkspaceOptions } from '../../src/repository/workspace.js';
import { createTempTree, removeTempTrees } from '../support/temp-tree.js';

const OPTIONS: WorkspaceOptions = { maxFileBytes: 10_000, maxFiles: 1_000 };

afterEach(async () => {
  await removeTempTrees();
});

describe('createSecretFileFilter', () => {
  const isSecret = createSecretFileFilter([]);

  it.each([
    // environment files, at any depth
    '.env',
    'services/api/.env',
    '.env.local',
    'config/.env.production',
    '.env.example',
    '.envrc',
    // private keys, certificates and key stores
    'certs/server.pem',
    'certs/server.key',
    'Server.KEY',
    'keystore/client.p12',
    'keystore/client.pfx',
    'tls/ca.crt',
    'tls/ca.cer',
    'tls/ca.der',
    'android/release.jks',
    'android/debug.keystore',
    'vault.kdbx',
    'backup.tar.gpg',
    'keys/signing-key.asc',
    'putty.ppk',
    'id_rsa',
    '.ssh/id_dsa',
    'home/.ssh/id_ecdsa',
    '.ssh/id_ed25519',
    '.ssh/id_ed25519_sk',
    '.ssh/id_rsa_work',
    '.ssh/id_rsa.old',
    // credential and key-store files
    '.npmrc',
    'packages/app/.npmrc',
    '.pypirc',
    '.netrc',
    '.pgpass',
    'public/.htpasswd',
    '.git-credentials',
    'credentials',
    'credentials.json',
    'config/gcp-credentials.json',
    'deploy/service-account-prod.json',
    '.aws/credentials',
    'home/.docker/config.json',
    '.kube/config',
    'infra/terraform.tfstate',
    'infra/terraform.tfstate.backup',
    'config/secrets.json',
    'config/secrets.yml',
    'secrets.yaml',
    'secrets.toml',
    'jwt.secret',
    // Before, only names starting with .env were: production.env went to the model whole.
    'deploy/production.env',
    'staging.env.local',
    'config/app.env.json',
  ])('%s is a secret file', (path) => {
    expect(isSecret(path)).toBe(true);
  });

  it.each([
    'src/env.ts',
    'src/config/environment.ts',
    'src/auth/token.ts',
    'src/key.ts',
    'src/keyboard.ts',
    'src/credentials.ts',
    'src/secrets.ts',
    'docs/secrets.md',
    'docker/config.json',
    'config.json',
    // public halves of SSH key pairs
    'id_rsa.pub',
    '.ssh/id_ed25519.pub',
    '.ssh/id_rsa_work.pub',
    'README.md',
    // Code named after an environment is code.
    'src/app.env.ts',
    'src/vite-env.d.ts',
    'config/config.env.js',
    'settings/settings.env.py',
  ])('%s is not a secret file', (path) => {
    expect(isSecret(path)).toBe(false);
  });

  it.each([
    ['.env.example', false],
    ['apps/web/.env.example', false],
    ['test/fixtures/tls/server.pem', false],
    ['.env', true],
    ['certs/server.pem', true],
    // Allowed globs are the user's own, matched as written.
    ['.ENV.EXAMPLE', true],
  ])('with allowed globs, %s is secret: %s', (path, secret) => {
    const allowing = createSecretFileFilter(['**/.env.example', 'test/fixtures/**/*.pem']);
    expect(allowing(path)).toBe(secret);
  });

  it('matches every pattern at any depth', () => {
    for (const pattern of SECRET_FILE_PATTERNS) expect(pattern.startsWith('**/')).toBe(true);
  });
});

describe('openWorkspace with secret files', () => {
  const SECRETS = {
    '.env': 'DATABASE_URL=postgres://app:s3cr3tPassw0rd@db:5432/app\n',
    'config/.env.production': 'API_KEY=abc\n',
    'certs/server.key': '-----BEGIN PRIVATE KEY-----\n',
    '.npmrc': '//registry.npmjs.org/:_authToken=abc\n',
    // Binary, but counted as the secret it is.
    'keystore/client.p12': Uint8Array.from([48, 130, 0, 1, 2]),
  };

  it('never reads secret files, and counts them', async () => {
    const root = await createTempTree({ ...SECRETS, 'src/index.ts': 'export {};\n' });
    const workspace = await openWorkspace(root, OPTIONS);
    expect(workspace.files.map((file) => file.path)).toEqual(['src/index.ts']);
    expect(workspace.skipped).toMatchObject({ secret: 5, binary: 0, ignored: 0 });
  });

  it('reads the secret files the user allows', async () => {
    const root = await createTempTree({ ...SECRETS, '.env.example': 'API_KEY=\n' });
    const workspace = await openWorkspace(root, {
      ...OPTIONS,
      allowSecretFiles: ['**/.env.example', 'config/**'],
    });
    expect(workspace.files.map((file) => file.path).sort()).toEqual([
      '.env.example',
      'config/.env.production',
    ]);
    expect(workspace.skipped.secret).toBe(4);
  });

  it('counts a secret file that git ignores as ignored', async () => {
    const root = await createTempTree({ '.gitignore': '.env\n', '.env': 'TOKEN=abc\n' });
    const workspace = await openWorkspace(root, OPTIONS);
    expect(workspace.skipped).toMatchObject({ ignored: 1, secret: 0 });
  });
});
