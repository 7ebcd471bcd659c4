import { env } from '@/config/env';
import { endSession, getAccessToken, recordActivity } from '@/lib/session';

/** An error answer from the API: `{ message, code }` with the HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The whole parsed answer, for calls whose errors carry more than a message (eligibility). */
  readonly body: unknown;

  constructor(status: number, message: string, code: string, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * A refusal that names the field it is about (a 400 whose body has `field`, the server's
 * `invalid_field` errors): forms show its message at that field instead of in a dialog.
 */
export function fieldError(failure: unknown): { field: string; message: string } | null {
  if (!(failure instanceof ApiError) || failure.status !== 400) return null;
  const field = (failure.body as { field?: unknown } | null)?.field;
  return typeof field === 'string' && field && failure.message ? { field, message: failure.message } : null;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra headers; an `x-access-token` here replaces the session's (one-time link tokens). */
  headers?: Record<string, string>;
}

/** Builds `path?query`, leaving out empty values so optional parameters stay optional. */
export function buildUrl(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return `${env.apiUrl}${path}${text ? `?${text}` : ''}`;
}

/** An answer, and whether the call went with the session's token (not a one-time link's in its place). */
interface Sent {
  response: Response;
  withSession: boolean;
}

/**
 * Sends a request with the session's token (and JSON body), as every call does. An answered call
 * with the session's token counts as activity for the idle limit.
 */
async function send(path: string, options: RequestOptions, accept: string): Promise<Sent> {
  const headers: Record<string, string> = { accept };
  const token = getAccessToken();
  if (token) headers['x-access-token'] = token;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, options.headers);
  const withSession = token !== null && headers['x-access-token'] === token;
  const response = await fetch(buildUrl(path, options.query), {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (withSession && response.ok) recordActivity();
  return { response, withSession };
}

/** The answer's text as JSON when it is JSON, else as it is (null when empty). */
function parsePayload(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The {@link ApiError} of an error answer, with the server's message and code. */
function errorOf(status: number, payload: unknown): ApiError {
  const body = (payload ?? {}) as { message?: unknown; msg?: unknown; code?: unknown };
  // Some answers name the text `msg` (password change), and a few are plain text.
  const message =
    typeof body.message === 'string' && body.message
      ? body.message
      : typeof body.msg === 'string' && body.msg
        ? body.msg
        : typeof payload === 'string' && payload
          ? payload
          : 'Oops. Something went wrong';
  const code = typeof body.code === 'string' ? body.code : `http_${status}`;
  return new ApiError(status, message, code, payload);
}

/**
 * The error of a refused call. When the session's token was refused because its session ended
 * (signed out elsewhere, a password change, a limit), every screen goes to the login page with
 * the server's reason, whichever call found out.
 */
function refusal({ response, withSession }: Sent, payload: unknown): ApiError {
  const error = errorOf(response.status, payload);
  if (withSession && error.status === 401 && error.code === 'session_ended') endSession(error.message);
  return error;
}

/**
 * Calls the API and parses JSON. Sends `x-access-token` when a token cookie exists, and turns
 * error answers into an {@link ApiError} carrying the server's message and code.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const sent = await send(path, options, 'application/json');
  const payload = parsePayload(await sent.response.text());
  if (!sent.response.ok) throw refusal(sent, payload);
  return payload as T;
}

/**
 * Downloads a file the API writes (a CSV): its bytes and the name its Content-Disposition gives.
 * Errors are the JSON {@link ApiError}s of {@link apiRequest}.
 */
export async function apiBlob(path: string, options: RequestOptions = {}): Promise<{ blob: Blob; filename: string | null }> {
  const sent = await send(path, options, '*/*');
  const { response } = sent;
  if (!response.ok) throw refusal(sent, parsePayload(await response.text()));
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}

/** Tells whether an error is an API answer with the given status. */
export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** The text of an answer that may be a `{message}` object or plain text, else `fallback`. */
export function answerText(answer: unknown, fallback: string): string {
  if (typeof answer === 'string' && answer.trim()) return answer;
  if (answer && typeof answer === 'object') {
    const { message, msg } = answer as { message?: unknown; msg?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof msg === 'string' && msg) return msg;
  }
  return fallback;
}

/** The message of a failed call: the server's text for an API error, else `fallback`. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
