import { globMatcher } from './glob-matcher.js';

/**
 * Files that hold secrets by their nature, whatever their content: environment files, private
 * keys and certificates, credential and key stores. They are never read, so no part of them can
 * reach a judge; redaction (./redact.ts) is the second line of defence for secrets in ordinary
 * files. Globs for picomatch, matched case-insensitively (`ID_RSA`, `Server.KEY` on Windows) and
 * against dot files, at any depth.
 */
export const SECRET_FILE_PATTERNS: readonly string[] = [
  // Environment files: `.env`, `.env.local`, `.env.production`... Templates such as
  // `.env.example` are included too, since real values end up in them; allow them by glob.
  '**/.env',
  '**/.env.*',
  // Named environment files: `production.env`, `deploy/staging.env.local` (see ENVIRONMENT_CODE).
  '**/*.env',
  '**/*.env.*',
  // direnv's `.envrc` exports the same variables.
  '**/.envrc',
  // Private keys, certificates and key stores (most binary ones would be skipped anyway; here they
  // are counted as secrets, which says more).
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/*.crt',
  '**/*.cer',
  '**/*.der',
  '**/*.jks',
  '**/*.keystore',
  '**/*.kdbx',
  '**/*.gpg',
  '**/*.asc',
  '**/*.ppk',
  // SSH private keys and their variants (`id_rsa_work`, `id_ed25519_sk`, `id_rsa.old`); public
  // keys (`.pub`) are not secret and stay searchable (see PUBLIC_KEYS).
  '**/id_{rsa,dsa,ecdsa,ed25519}',
  '**/id_{rsa,dsa,ecdsa,ed25519}[._-]*',
  // Credential files of package managers, databases, web servers and git.
  '**/.npmrc',
  '**/.pypirc',
  '**/.netrc',
  '**/_netrc',
  '**/.pgpass',
  '**/.htpasswd',
  '**/.git-credentials',
  // Cloud and container credentials (`**/credentials` covers `.aws/credentials`, listed anyway).
  '**/credentials',
  '**/credentials.json',
  '**/*credentials*.json',
  '**/service-account*.json',
  '**/.aws/credentials',
  '**/.docker/config.json',
  '**/.kube/config',
  // Terraform state stores every resource's secrets in plain text.
  '**/*.tfstate',
  '**/*.tfstate.backup',
  // Secret stores by name.
  '**/secrets.{json,yml,yaml,toml}',
  '**/*.secret',
];

/** Public halves of SSH key pairs, which the `id_rsa*` variants would otherwise catch. */
const PUBLIC_KEYS = ['**/*.pub'];

/**
 * Source code named after an environment (`app.env.ts`, `config.env.js`, `settings.env.py`):
 * `*.env.*` is for environment files, and code is what the search is for.
 */
const ENVIRONMENT_CODE = [
  '**/*.env.{ts,tsx,mts,cts,js,jsx,mjs,cjs,py,rb,go,rs,java,kt,kts,scala,php,cs,swift,dart,ex,exs}',
];

/**
 * Builds a test for whether a path (POSIX, relative to the root) is a secret file that must not
 * be read. Paths matching one of the user's `allowed` globs are not, so a repository whose
 * `config/dev.key` or `.env.example` is harmless can still be searched.
 */
export function createSecretFileFilter(allowed: readonly string[]): (path: string) => boolean {
  const isSecret = globMatcher(SECRET_FILE_PATTERNS, {
    nocase: true,
    ignore: [...PUBLIC_KEYS, ...ENVIRONMENT_CODE],
  });
  const isAllowed = allowed.length > 0 ? globMatcher(allowed) : () => false;
  return (path) => isSecret(path) && !isAllowed(path);
}
