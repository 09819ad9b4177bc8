/**
 * A small TypeScript service for the offline judge's tests: `src/auth/token.ts` defines
 * `refreshToken` and `isTokenExpired`; `session.ts` and `api/routes.ts` call `refreshToken`;
 * `billing/` is about something else. Imports cross directories and include a package.
 */
export const AUTH_SERVICE: Record<string, string> = {
  'src/auth/token.ts': lines(
    "import { now } from './clock.js';",
    "import { sign } from 'jsonwebtoken';",
    '',
    'export function refreshToken(token: string): string {',
    '  if (now() > 0) return sign(token);',
    '  return token;',
    '}',
    '',
    'export function isTokenExpired(expiresAt: number): boolean {',
    '  return now() >= expiresAt;',
    '}',
  ),
  'src/auth/clock.ts': lines('export function now(): number {', '  return Date.now();', '}'),
  'src/auth/session.ts': lines(
    "import { refreshToken } from './token.js';",
    "import { loadUser } from '../users/store.js';",
    '',
    'export function renewSession(session: { token: string }) {',
    '  session.token = refreshToken(session.token);',
    '  return loadUser(session.token);',
    '}',
  ),
  'src/users/store.ts': lines('export function loadUser(id: string) {', '  return { id };', '}'),
  'src/api/routes.ts': lines(
    "import { refreshToken } from '../auth/token.js';",
    '',
    'export const routes = {',
    "  '/refresh': (token: string) => refreshToken(token),",
    '};',
  ),
  'src/billing/invoice.ts': lines(
    'export function totalOf(amounts: number[]): number {',
    '  return amounts.reduce((sum, amount) => sum + amount, 0);',
    '}',
    '',
    'export function formatInvoice(total: number): string {',
    '  return `Total: ${total}`;',
    '}',
  ),
  'src/billing/mailer.ts': lines(
    "import { formatInvoice, totalOf } from './invoice.js';",
    '',
    'export function mailInvoice(amounts: number[]): string {',
    '  return formatInvoice(totalOf(amounts));',
    '}',
  ),
  'docs/tokens.md': lines('# Tokens', '', 'Call refreshToken before the token expires.'),
  'test/token.test.ts': lines(
    "import { refreshToken } from '../src/auth/token.js';",
    "refreshToken('a');",
  ),
};

function lines(...text: string[]): string {
  return `${text.join('\n')}\n`;
}
