// The certiq HTTPS API, as the page uses it. Paths are relative so the page works under a stage.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function request(method, path, { json, body, contentType } = {}) {
  const headers = {};
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
  if (!response.ok) throw new ApiError(response.status, data);
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
  upload: (file) =>
    request("POST", `/v1/documents?file_name=${encodeURIComponent(file.name)}`, {
      body: file,
      contentType: "application/pdf",
    }),
  verifyCertificate: (id) =>
    request("POST", `/v1/certificates/${encodeURIComponent(id)}/verify`),
  pageUrl: (docId, page) =>
    `v1/documents/${encodeURIComponent(docId)}/pages/${encodeURIComponent(page)}.png`,
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
