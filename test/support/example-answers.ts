import type { RequestInfo } from './anthropic-fixtures.js';
import { messageBody } from './msw-anthropic.js';

/**
 * Hand-written answers for the bundled example, as a good model would give them: the source of the
 * fixtures made with AUTHOR_FIXTURES=1 (the development machines cannot reach the API). Usage
 * figures are estimates from the request's length (characters / 4). Caching is counted as the API
 * would: a system prefix marked for caching and at least the model's minimum cacheable length
 * (1,024 tokens; 4,096 for Haiku-class models) is written by the first query and read by each
 * refinement, which share it; the evaluator's prefix is shorter than Haiku's minimum.
 */

type Verdict = [relevance: number, reason: string, missingContext?: string[]];
/** A refinement: the next query, and the refiner's verdict on the context so far. */
interface Refinement {
  patterns: string[];
  keywords: string[];
  excludes: string[];
  focusAreas: string[];
  verdict: { sufficient: boolean; missing: string[]; reason: string; likelyEdited: string[] };
}

interface TaskAnswers {
  initial: Record<string, string[]>;
  refinements: Refinement[];
  verdicts: Record<string, Verdict>;
  otherwise: Verdict;
}

export const TOKEN_EXPIRY_TASK = 'Fix the authentication token expiry bug';
export const RATE_LIMIT_TASK = 'Add rate limiting to API endpoints';

const ANSWERS: Record<string, TaskAnswers> = {
  [TOKEN_EXPIRY_TASK]: {
    initial: {
      patterns: ['**/*'],
      keywords: [
        'token',
        'expiry',
        'expiresAt',
        'accessTokenTtlSeconds',
        'issueAccessToken',
        'isTokenExpired',
        'session',
        'jwt',
        'exp',
        'authenticate',
      ],
      excludes: ['docs/**'],
      focusAreas: ['src/auth'],
    },
    refinements: [
      {
        patterns: ['**/*', 'src/utils/dates.ts', 'src/config/index.ts'],
        keywords: [
          'addSeconds',
          'toEpochSeconds',
          'secondsUntil',
          'accessTokenTtlSeconds',
          'refreshTokenTtlSeconds',
        ],
        excludes: ['docs/**'],
        focusAreas: ['src/auth', 'src/utils'],
        verdict: {
          sufficient: false,
          missing: [
            'src/utils/dates.ts (addSeconds)',
            'src/config/index.ts (accessTokenTtlSeconds)',
          ],
          reason:
            'tokens.ts holds the bug, but the date helper it should use and the TTL setting it misreads are not rated yet.',
          likelyEdited: ['src/auth/tokens.ts'],
        },
      },
      {
        patterns: ['**/*'],
        keywords: ['clockSkew', 'nowSeconds'],
        excludes: ['docs/**'],
        focusAreas: ['src/auth'],
        verdict: {
          sufficient: true,
          missing: [],
          reason:
            'tokens.ts, where expiresAt is computed, and the helper and setting it needs are all rated.',
          likelyEdited: ['src/auth/tokens.ts'],
        },
      },
    ],
    verdicts: {
      'src/auth/tokens.ts': [
        0.95,
        'issueAccessToken() adds config.auth.accessTokenTtlSeconds (seconds) to Date.now() (milliseconds), so access tokens expire almost at once; isTokenExpired() and expiresInSeconds() read that expiresAt.',
        [
          'src/utils/dates.ts (addSeconds, toEpochSeconds)',
          'src/config/index.ts (accessTokenTtlSeconds)',
        ],
      ],
      'src/auth/auth-service.ts': [
        0.85,
        "login() issues the token pair through issueAccessToken(), and authenticate() turns JwtError('expired') into 401 'Token has expired'.",
      ],
      'src/auth/jwt-utils.ts': [
        0.8,
        'verifyJwt() rejects a token once its exp claim (written from expiresAt by signJwt()) is past, allowing DEFAULT_CLOCK_SKEW_SECONDS.',
      ],
      'src/auth/session-manager.ts': [
        0.75,
        'SessionManager keeps the session alive with a sliding expiresAt, which is why requests fail with a live session: it shows the correct seconds-to-milliseconds handling.',
      ],
      'src/utils/dates.ts': [
        0.6,
        'addSeconds() is the helper issueRefreshToken() uses correctly; the access-token fix should use it too.',
      ],
      'src/config/index.ts': [
        0.55,
        'Defines auth.accessTokenTtlSeconds in seconds, the value misused as milliseconds.',
      ],
      'src/routes/auth.ts': [
        0.45,
        'The login and refresh handlers return expires_in from the token: they show the symptom but need no change.',
      ],
      'test/auth/tokens.test.ts': [
        0.5,
        'Tests of tokens.ts; a regression test for the access-token lifetime belongs here.',
      ],
      'src/middleware/require-auth.ts': [
        0.35,
        'Calls AuthService.authenticate() for protected routes; tangential to the expiry computation.',
      ],
      'src/billing/payment-gateway.ts': [
        0.1,
        "Caches the payment provider's OAuth token; unrelated to user authentication.",
      ],
      'src/cache/lru-cache.ts': [
        0.1,
        'Expiry of cache entries; unrelated to authentication tokens.',
      ],
    },
    otherwise: [0.1, 'Nothing here touches authentication tokens or their expiry.'],
  },
  [RATE_LIMIT_TASK]: {
    initial: {
      patterns: ['**/*'],
      keywords: [
        'rate limit',
        'throttle',
        'limiter',
        'quota',
        'Retry-After',
        'tooManyRequests',
        'middleware',
        'router',
        'api',
      ],
      excludes: ['docs/**'],
      focusAreas: ['src/middleware', 'src/routes'],
    },
    refinements: [
      {
        patterns: ['**/*', 'src/config/index.ts'],
        keywords: ['createThrottle', 'ThrottleConfig', 'defaultMiddleware', 'createApiRouter'],
        excludes: ['docs/**'],
        focusAreas: ['src/middleware', 'src/routes'],
        verdict: {
          sufficient: true,
          missing: [],
          reason:
            'The throttle middleware and the router set-up that applies it are found; its config is related only.',
          likelyEdited: ['src/middleware/throttle.ts', 'src/routes/index.ts'],
        },
      },
      {
        patterns: ['**/*'],
        keywords: ['clientKey', 'refillPerSecond'],
        excludes: ['docs/**'],
        focusAreas: ['src/middleware'],
        verdict: {
          sufficient: true,
          missing: [],
          reason: 'Nothing the task needs is missing.',
          likelyEdited: ['src/middleware/throttle.ts', 'src/routes/index.ts'],
        },
      },
    ],
    verdicts: {
      'src/middleware/throttle.ts': [
        0.95,
        'createThrottle() is a token-bucket limiter per client key that answers 429 with Retry-After: the codebase calls rate limiting "throttle".',
      ],
      'src/routes/index.ts': [
        0.85,
        'createApiRouter() mounts the /api routes and applies the throttle to them: this is where endpoints get limited.',
      ],
      'src/middleware/index.ts': [
        0.8,
        'Re-exports createThrottle and builds defaultMiddleware(), where the API throttle is configured.',
        ['src/config/index.ts (ThrottleConfig)'],
      ],
      'src/config/index.ts': [
        0.6,
        'ThrottleConfig holds the capacity and refill settings of the API throttle.',
      ],
      'src/http/router.ts': [
        0.5,
        'The Router that middleware and routes run on; needed to see how middleware wraps endpoints.',
      ],
      'test/middleware/throttle.test.ts': [
        0.45,
        'Tests of the throttle middleware; new limits would be tested here.',
      ],
      'src/routes/users.ts': [
        0.35,
        'Defines /api/users endpoints; the throttle reaches them through the router set-up.',
      ],
      'src/routes/orders.ts': [
        0.35,
        'Defines /api/orders endpoints; the throttle reaches them through the router set-up.',
      ],
      'src/utils/pagination.ts': [0.1, 'Page-size limits, not request-rate limits.'],
      'src/http/json-body.ts': [0.15, 'A request-body size limit; unrelated to request rates.'],
    },
    otherwise: [0.1, 'Nothing here handles request rates or the API middleware.'],
  },
};

const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function message(model: string, answer: unknown, request: RequestInfo) {
  const text = JSON.stringify(answer);
  const cached = request.body.system
    .filter((block) => block.cache_control)
    .map((block) => block.text)
    .join('');
  const rest =
    request.body.system
      .filter((block) => !block.cache_control)
      .map((block) => block.text)
      .join('') + request.body.messages.map((entry) => entry.content).join('');
  const prefix = estimateTokens(cached);
  const cacheable = prefix >= (model.includes('haiku') ? 4096 : 1024);
  const written = cacheable && request.call === 'initial-query' ? prefix : 0;
  const read = cacheable && request.call === 'refine' ? prefix : 0;
  return messageBody(text, {
    model,
    usage: {
      input_tokens: estimateTokens(rest) + (cacheable ? 0 : prefix) + 20,
      output_tokens: estimateTokens(text) + 5,
      cache_creation_input_tokens: written,
      cache_read_input_tokens: read,
    },
  });
}

/** The hand-written answer to one request of a run on the bundled example. */
export function authorExampleAnswer(request: RequestInfo): unknown {
  const text =
    request.body.system.map((block) => block.text).join('\n') +
    request.body.messages.map((entry) => entry.content).join('\n');
  const task = /<task>\n([\s\S]*?)\n<\/task>/.exec(text)?.[1]?.trim() ?? '';
  const answers = ANSWERS[task];
  if (!answers) throw new Error(`no hand-written answers for the task "${task}"`);
  if (request.call === 'initial-query')
    return message(request.body.model, answers.initial, request);
  if (request.call === 'refine') {
    const cycle = Number(/## After cycle (\d+)/.exec(text)?.[1] ?? '1');
    return message(
      request.body.model,
      answers.refinements[Math.min(cycle, answers.refinements.length) - 1],
      request,
    );
  }
  const [relevance, reason, missingContext = []] =
    (request.path && answers.verdicts[request.path]) || answers.otherwise;
  return message(request.body.model, { relevance, reason, missingContext }, request);
}
