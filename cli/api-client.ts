import { CliError, ExitCode, type ExitCodeValue } from "./errors";
import type { Connection } from "./settings";

type Query = Record<string, string | number | boolean | undefined>;
type RequestOptions = { body?: unknown; query?: Query; timeoutMs?: number; headers?: Record<string, string> };

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The CLI's only way to Switchboard: its REST API (docs/api.md). Turns every failure
 * into a CliError with the server's own message (and per-field messages) and the exit code scripts
 * rely on.
 */
export class ApiClient {
  constructor(readonly connection: Connection) {}

  get<T>(path: string, query?: Query) {
    return this.request<T>("GET", path, { query });
  }
  post<T>(path: string, body?: unknown, options: Omit<RequestOptions, "body"> = {}) {
    return this.request<T>("POST", path, { ...options, body: body ?? {} });
  }
  patch<T>(path: string, body: unknown) {
    return this.request<T>("PATCH", path, { body });
  }
  put<T>(path: string, body: unknown, query?: Query) {
    return this.request<T>("PUT", path, { body, query });
  }
  delete<T>(path: string) {
    return this.request<T>("DELETE", path, {});
  }

  async request<T>(method: string, path: string, options: RequestOptions): Promise<T> {
    const response = await this.send(method, path, options);
    return (await readBody(response)) as T;
  }

  /** The raw response of a successful request (status included), e.g. 200 vs 202 for calls. */
  async send(
    method: string,
    path: string,
    options: RequestOptions & { signal?: AbortSignal },
  ): Promise<Response> {
    const url = this.url(path, options.query);
    const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        signal,
        headers: {
          ...this.authHeaders(),
          accept: "application/json",
          ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
          ...options.headers,
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      });
    } catch (error) {
      throw this.unreachable(error, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    }
    if (!response.ok) throw await this.failure(response);
    return response;
  }

  authHeaders(): Record<string, string> {
    const key = this.connection.apiKey;
    if (!key) {
      throw new CliError(
        "No API key: run `switchboard login`, set SWITCHBOARD_API_KEY, or pass --api-key.",
        ExitCode.auth,
      );
    }
    return { authorization: `Bearer ${key}` };
  }

  url(path: string, query?: Query): string {
    const url = new URL(`${this.connection.url}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== "") url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  unreachable(error: unknown, timeoutMs: number): CliError {
    if (error instanceof CliError) return error;
    const name = (error as Error)?.name;
    if (name === "TimeoutError") {
      return new CliError(
        `Switchboard at ${this.connection.url} did not answer within ${Math.round(timeoutMs / 1000)} s.`,
        ExitCode.unreachable,
      );
    }
    if (name === "AbortError") return new CliError("Cancelled.", ExitCode.error);
    const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
    const why = cause?.code ?? cause?.message ?? (error as Error)?.message ?? "unknown error";
    return new CliError(
      `Could not reach Switchboard at ${this.connection.url} (${why}). Is it running? Set --url or SWITCHBOARD_URL.`,
      ExitCode.unreachable,
    );
  }

  async failure(response: Response): Promise<CliError> {
    const body = (await response.json().catch(() => null)) as {
      error?: { code?: string; message?: string; fieldErrors?: Record<string, string[]> };
    } | null;
    const error = body?.error;
    if (!error?.message) {
      return new CliError(
        `${this.connection.url} answered ${response.status} ${response.statusText}; is this a Switchboard?`,
        response.status === 401 ? ExitCode.auth : ExitCode.error,
        response.status,
      );
    }
    return new CliError(
      error.message,
      exitCodeFor(response.status, error.code),
      response.status,
      error.fieldErrors,
    );
  }
}

function exitCodeFor(status: number, code: string | undefined): ExitCodeValue {
  if (status === 401 || code === "unauthenticated") return ExitCode.auth;
  if (code === "forbidden") return ExitCode.auth;
  if (code === "policy_denied") return ExitCode.denied;
  return ExitCode.error;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`The server answered ${response.status} with something that is not JSON.`);
  }
}

/** A path segment from a name or id the person typed. */
export const segment = (value: string) => encodeURIComponent(value);
