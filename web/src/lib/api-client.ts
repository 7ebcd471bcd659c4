import { env } from '@/config/env';
import { getAccessToken } from '@/lib/session';

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

/**
 * Calls the API and parses JSON. Sends `x-access-token` when a token cookie exists, and turns
 * error answers into an {@link ApiError} carrying the server's message and code.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getAccessToken();
  if (token) headers['x-access-token'] = token;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, options.headers);

  const response = await fetch(buildUrl(path, options.query), {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });

  const text = await response.text();
  let payload: unknown = null;
  if (text) {
    try {
      payload = JSON.parse(text);
    } catch {
      payload = text;
    }
  }
  if (!response.ok) {
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
    const code = typeof body.code === 'string' ? body.code : `http_${response.status}`;
    throw new ApiError(response.status, message, code, payload);
  }
  return payload as T;
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
