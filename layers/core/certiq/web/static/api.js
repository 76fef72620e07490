// The certiq HTTPS API, as the page uses it. Paths are relative so the page works under a stage.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

// A Cognito ID token (ApiAuth=COGNITO) is sent as Authorization on every /v1 request. It lives
// in sessionStorage: gone when the tab closes, never sent to other sites (S3 uploads included).
const TOKEN_KEY = "certiq.idToken";

export const auth = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  signIn(token) {
    const cleaned = (token || "").trim().replace(/^Bearer\s+/i, "");
    if (cleaned) sessionStorage.setItem(TOKEN_KEY, cleaned);
    else sessionStorage.removeItem(TOKEN_KEY);
  },
  signOut: () => sessionStorage.removeItem(TOKEN_KEY),
  /** Takes an ID token from the URL fragment (#id_token=..., as Cognito's hosted UI returns it). */
  fromFragment() {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const token = fragment.get("id_token");
    if (!token) return false;
    auth.signIn(token);
    const url = new URL(window.location.href);
    url.hash = "";
    history.replaceState(null, "", url);
    return true;
  },
};

/** Tells the page the API refused the caller (no token, an expired one, or IAM auth). */
function refused(status) {
  if (status === 401 || status === 403) {
    window.dispatchEvent(new CustomEvent("certiq:unauthorised", { detail: { status } }));
  }
}

function authorised(headers) {
  const token = auth.token();
  // The raw ID token: what API Gateway's Cognito user pool authorizer reads from Authorization.
  if (token) headers.Authorization = token;
  return headers;
}

async function request(method, path, { json, body, contentType, quiet = false } = {}) {
  const headers = authorised({});
  let payload = body;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(json);
  } else if (contentType) {
    headers["Content-Type"] = contentType;
  }
  const response = await fetch(path.replace(/^\//, ""), { method, headers, body: payload });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!response.ok) {
    // quiet: a route the page can go without (a 403 may only mean API Gateway lacks it).
    if (!quiet) refused(response.status);
    throw new ApiError(response.status, data);
  }
  return data;
}

export const api = {
  ask: (question, conversationId, language) =>
    request("POST", "/v1/questions", {
      json: { question, conversation_id: conversationId, ...(language ? { language } : {}) },
    }),
  question: (id) => request("GET", `/v1/questions/${encodeURIComponent(id)}`),
  conversation: (id) => request("GET", `/v1/conversations/${encodeURIComponent(id)}`),
  documents: () => request("GET", "/v1/documents"),
  document: (id) => request("GET", `/v1/documents/${encodeURIComponent(id)}`),
  deleteDocument: (id) => request("DELETE", `/v1/documents/${encodeURIComponent(id)}`),
  /** {count, ...}: how many certified answers cite the document (404 where not offered). */
  documentCitations: (id) => request("GET", `/v1/documents/${encodeURIComponent(id)}/citations`),
  /** The URL of a question's status as server-sent events (certiq serve only; see follow()). */
  questionEventsUrl: (id) => `v1/questions/${encodeURIComponent(id)}/events`,
  upload: (file) =>
    request("POST", `/v1/documents?file_name=${encodeURIComponent(file.name)}`, {
      body: file,
      contentType: "application/pdf",
    }),
  capabilities: () => request("GET", "/v1/capabilities"),
  certificate: (id) => request("GET", `/v1/certificates/${encodeURIComponent(id)}`),
  verifyCertificate: (id) =>
    request("POST", `/v1/certificates/${encodeURIComponent(id)}/verify`),
  /** The certificate's re-checks, oldest first: the last is the answer's standing now. */
  certificateRechecks: (id) =>
    request("GET", `/v1/certificates/${encodeURIComponent(id)}/rechecks`, { quiet: true }),
  uploadTarget: (fileName) =>
    request("POST", `/v1/documents?file_name=${encodeURIComponent(fileName)}`),
  pageUrl: (docId, page) =>
    `v1/documents/${encodeURIComponent(docId)}/pages/${encodeURIComponent(page)}.png`,
  /**
   * A page image as a Blob. Fetched rather than put in <img src>: API Gateway returns binary
   * only when the request's first Accept type is a binary media type (image/png), and an <img>
   * asks for other types first; fetch also carries the Authorization header.
   */
  async pageImage(docId, page) {
    const response = await fetch(api.pageUrl(docId, page), {
      headers: authorised({ Accept: "image/png" }),
    });
    if (!response.ok) {
      refused(response.status);
      let data = null;
      try {
        data = await response.json();
      } catch {
        data = null;
      }
      throw new ApiError(response.status, data);
    }
    return response.blob();
  },
};

/** Sends a file to a presigned POST target (the cloud's direct-to-S3 upload). */
export async function sendToTarget(target, file) {
  const form = new FormData();
  for (const [name, value] of Object.entries(target.fields)) form.append(name, value);
  form.append(target.file_field || "file", file);
  const response = await fetch(target.url, { method: target.method || "POST", body: form });
  if (!response.ok) throw new ApiError(response.status, { message: await response.text() });
}

export const TERMINAL = new Set(["COMPLETE", "NEEDS_CLARIFICATION", "REJECTED", "FAILED"]);
export const DOCUMENT_DONE = new Set(["INDEXED", "FAILED", "DELETED"]);

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
