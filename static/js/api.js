// The REST half of the public interface (docs/api.md). Every error becomes an ApiError that
// carries the server's {"error": {"code", "message"}} so pages can show it as it is.

import { noteServerDate } from "./clock.js";
import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** What an HTTP status means to a player, for an answer that says nothing itself; null if unknown. */
function statusText(status) {
  return {
    400: t("The request was not understood."),
    401: t("Please sign in first."),
    403: t("You are not allowed to do that."),
    404: t("Not found."),
    409: t("That conflicts with the current state; please try again."),
    422: t("Some of the values are not valid."),
    429: t("Too many requests; slow down a little."),
  }[status] || null;
}

function errorFrom(status, body) {
  const error = body && body.error;
  if (error && typeof error === "object") {
    return new ApiError(status, error.code || `http_${status}`, error.message || statusText(status) || t("Error {status}", { status }));
  }
  // FastAPI's own validation shape, in case a route answers before our error handler does.
  if (body && Array.isArray(body.detail)) {
    const text = body.detail
      .map((item) => `${(item.loc || []).filter((part) => part !== "body").join(".")}: ${item.msg}`)
      .join("; ");
    return new ApiError(status, "bad_request", text);
  }
  if (body && typeof body.detail === "string") return new ApiError(status, `http_${status}`, body.detail);
  return new ApiError(status, `http_${status}`, statusText(status) || t("The server answered {status}.", { status }));
}

/** Call the API: api("POST", "/api/tables", {...}). Resolves to the parsed JSON body (or null). */
export async function api(method, path, body) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", t("Cannot reach the server. Check your connection and try again."));
  }
  noteServerDate(response.headers.get("Date"));
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) throw errorFrom(response.status, data);
  return data;
}

/** Add ?invite_code=... to an API path when there is a code. */
export function withInvite(path, inviteCode) {
  if (!inviteCode) return path;
  const joiner = path.includes("?") ? "&" : "?";
  return `${path}${joiner}invite_code=${encodeURIComponent(inviteCode)}`;
}

/** The signed-in account, or null when nobody is signed in. Asked of /api/auth/session, which
 * answers 200 either way: /api/auth/me's 401 for a visitor is logged as an error in the console. */
export async function currentAccount() {
  const answer = await api("GET", "/api/auth/session");
  return (answer && answer.account) || null;
}
