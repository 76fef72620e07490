// The certiq page: a conversation, each answer beside its highlighted sources.
import { api, ApiError, auth, sendToTarget, sleep, TERMINAL, DOCUMENT_DONE } from "./api.js";
import { labelIn, language, setLanguage, standingLabel, stateLabel, statusLabel, t, translatePage } from "./i18n.js";

const POLL_MS = 300;
// The reader's probability from which a quote "likely" answers the question (else "possibly").
const LIKELY = 0.5;
const CONVERSATION_KEY = "certiq.conversation";
const $ = (id) => document.getElementById(id);

const state = {
  conversationId: null,
  turns: [], // {questionId, question, status, reason, response}
  active: null, // {questionId, citationIds, docId, page}
  capabilities: null, // {index_language, translation}: GET /v1/capabilities
};

// --- small DOM helpers ----------------------------------------------------------------------

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function formatScore(score) {
  return typeof score === "number" ? score.toFixed(2) : "";
}

function sourceIcon(source) {
  const mime = source.mime_type || "";
  const kind = source.source_type === "web" ? "WEB" : mime.includes("pdf") ? "PDF" : "TXT";
  return el("span", { class: `file-icon file-${kind.toLowerCase()}`, "aria-hidden": "true", text: kind });
}

// --- the conversation -----------------------------------------------------------------------

function newConversationId() {
  return crypto.randomUUID ? crypto.randomUUID() : `c-${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

function rememberConversation(id) {
  state.conversationId = id;
  localStorage.setItem(CONVERSATION_KEY, id);
  const url = new URL(window.location.href);
  url.searchParams.set("c", id);
  history.replaceState(null, "", url);
}

async function restoreConversation() {
  const fromUrl = new URL(window.location.href).searchParams.get("c");
  const id = fromUrl || localStorage.getItem(CONVERSATION_KEY);
  if (!id) {
    rememberConversation(newConversationId());
    return;
  }
  rememberConversation(id);
  try {
    const view = await api.conversation(id);
    state.turns = view.questions.map((question) => turnFrom(question));
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) showStatus(t("error", { message: error.message }));
    state.turns = [];
  }
  renderConversation();
  const last = [...state.turns].reverse().find((turn) => turn.response);
  if (last) selectAnswer(last.questionId);
  for (const turn of state.turns) if (!TERMINAL.has(turn.status)) follow(turn);
}

function turnFrom(view, question) {
  return {
    questionId: view.question_id,
    question: view.response?.question ?? question ?? null,
    status: view.status,
    reason: view.reason ?? null,
    response: view.response ?? null,
  };
}

async function refreshConversation() {
  if (!state.conversationId || !state.turns.length) return;
  try {
    const view = await api.conversation(state.conversationId);
    const asked = new Map(state.turns.map((turn) => [turn.questionId, turn.question]));
    state.turns = view.questions.map((question) => turnFrom(question, asked.get(question.question_id)));
  } catch (error) {
    return;
  }
  renderConversation();
  if (state.active) selectAnswer(state.active.questionId, state.active.citationIds, { openViewer: false });
}

async function ask(question) {
  showStatus(statusLabel("RECEIVED"));
  $("ask-button").disabled = true;
  try {
    const accepted = await api.ask(question, state.conversationId);
    const turn = { questionId: accepted.question_id, question, status: accepted.status, reason: null, response: null };
    state.turns.push(turn);
    renderConversation();
    await follow(turn);
  } catch (error) {
    showStatus(t("error", { message: error.message }));
  } finally {
    $("ask-button").disabled = false;
  }
}

/** Follows a question until the state machine ends, showing each status as it comes: by its
 * server-sent events where the server offers them (certiq serve), else by polling. */
async function follow(turn) {
  if (!TERMINAL.has(turn.status) && (await streamStatus(turn))) {
    finishTurn(turn);
    return;
  }
  while (!TERMINAL.has(turn.status)) {
    showStatus(statusLabel(turn.status));
    await sleep(POLL_MS);
    try {
      const view = await api.question(turn.questionId);
      Object.assign(turn, turnFrom(view, turn.question));
    } catch (error) {
      showStatus(t("error", { message: error.message }));
      return;
    }
    renderTurnStatus(turn);
  }
  finishTurn(turn);
}

function finishTurn(turn) {
  showStatus(statusLabel(turn.status));
  renderConversation();
  if (turn.response) selectAnswer(turn.questionId);
}

/**
 * GET /v1/questions/{id}/events: each state as it starts, then the result. Resolves true once the
 * result is in the turn; false when the stream is not there or breaks first (behind API Gateway
 * the route is not offered, and EventSource cannot send the Authorization header), and the
 * caller polls.
 */
function streamStatus(turn) {
  if (typeof EventSource === "undefined" || auth.token()) return Promise.resolve(false);
  return new Promise((resolve) => {
    const source = new EventSource(api.questionEventsUrl(turn.questionId));
    const end = (done) => {
      source.close();
      resolve(done);
    };
    source.addEventListener("status", (event) => {
      const data = JSON.parse(event.data);
      if (data.phase !== "started") return;
      turn.status = data.status;
      turn.statusVia = "events";
      showStatus(statusLabel(turn.status));
      renderTurnStatus(turn);
    });
    source.addEventListener("result", (event) => {
      Object.assign(turn, turnFrom(JSON.parse(event.data), turn.question));
      end(true);
    });
    source.onerror = () => end(false);
  });
}

function showStatus(text) {
  $("ask-status").textContent = text;
}

function renderConversation() {
  const list = $("conversation");
  list.replaceChildren(...state.turns.map(renderTurn));
  $("empty-conversation").hidden = state.turns.length > 0;
}

function renderTurnStatus(turn) {
  const node = document.querySelector(`[data-question-id="${CSS.escape(turn.questionId)}"] .turn-status`);
  if (!node) return;
  node.textContent = statusLabel(turn.status);
  node.dataset.status = turn.status;
  if (turn.statusVia) node.dataset.via = turn.statusVia;
}

function renderTurn(turn) {
  const response = turn.response;
  const selected = state.active?.questionId === turn.questionId;
  return el(
    "li",
    { class: `turn${selected ? " turn-selected" : ""}`, dataset: { questionId: turn.questionId } },
    el("div", { class: "bubble bubble-question" },
      el("span", { class: "speaker", text: t("you") }),
      el("p", { class: "question-text", text: turn.question ?? t("pendingQuestion") })),
    el("div", { class: "bubble bubble-answer", "aria-busy": TERMINAL.has(turn.status) ? "false" : "true" },
      el("span", { class: "speaker", text: t("certiq") }),
      el("span", { class: `turn-status status-${turn.status.toLowerCase()}`, text: statusLabel(turn.status) }),
      response ? renderAnswer(turn, response) : turn.reason ? el("p", { class: "message", text: turn.reason }) : null),
  );
}

function renderAnswer(turn, response) {
  // One rendering: the statements the API returns, each the draft's sentence as written and
  // sealed in the certificate's answer; never a claim rewritten for judging.
  const byId = new Map((response.citations || []).map((citation) => [citation.id, citation]));
  const statements = response.statements || [];
  const shown = statements.filter((statement) => statement.shown);
  const withheld = statements.filter((statement) => !statement.shown);
  const body = el("p", { class: "answer" });
  if (shown.length) {
    shown.forEach((statement, index) => {
      const state = statement.state === "VERIFIED" ? "verified" : "unverified";
      const tipId = `tip-${turn.questionId}-${index}`;
      const label = state === "verified" ? t("verified") : t("unverified");
      body.append(
        el("span", { class: `claim claim-${state}`, tabindex: "0", "aria-describedby": tipId, dataset: { claims: statement.claim_ids.join(" ") } },
          statement.text,
          el("span", { class: "claim-tip", role: "tooltip", id: tipId, text: `${label}: ${statement.reason}` })),
        stateBadge(statement.state),
      );
      // The reader's own judgement beside Verified: whether the sentence answers what was asked.
      if (statement.answers_question != null) {
        const likely = statement.answers_question.toFixed(2);
        body.append(" ", el("span", { class: "answers-question", title: t("answersQuestionTip"), text: `(${t("answersQuestion", { likely })})` }));
      }
      for (const citationId of statement.citation_ids) {
        const citation = byId.get(citationId);
        if (citation) body.append(" ", renderChip(turn, citation, response));
      }
      if (index < shown.length - 1) body.append(" ");
    });
  } else if (response.answer) {
    body.append(response.answer);
  }
  const parts = [];
  if (shown.length || response.answer) parts.push(body);
  // Offline, every shown sentence is quoted: Verified says the document states it, and only a
  // reader can say whether it answers the question (the README's held-out figures).
  if (shown.length && response.answerer === "extractive") parts.push(el("p", { class: "answer-note", text: t("quotedOffline") }));
  if (response.message) parts.push(el("p", { class: "message", text: response.message }));
  if (!shown.length && !response.answer && !response.message) parts.push(el("p", { class: "message", text: t("noAnswer") }));
  if (response.related?.length) parts.push(renderRelated(response, response.related, response.outcome));
  if (withheld.length) parts.push(renderWithheld(turn, withheld, byId, response));
  if (response.certificate_id) parts.push(renderCertificate(turn, response));
  return el("div", { class: "answer-block" }, parts);
}

function renderRelated(response, related, outcome) {
  // Reading offered beside "the documents do not state...": passages, never claims or chips.
  // A question searched untranslated was not read against them: the title does not say they
  // fail to state it. Each opens its page with the passage boxed, as a citation does.
  const unchecked = outcome === "NOT_FOUND_AS_WRITTEN";
  return el("div", { class: "related", dataset: { outcome } },
    el("p", { class: "related-title", text: t(unchecked ? "relatedUnchecked" : "relatedReading") }),
    el("ul", {}, related.map((passage) =>
      el("li", {},
        el("span", { class: "related-where" },
          `${passage.file_name}, ${t("page", { n: passage.page })}`,
          passage.boxes?.length
            ? [" · ", el("button", {
                type: "button",
                class: "link-button related-open",
                text: t("readingOpen", { n: passage.page }),
                onclick: () => openPage(response, passage.doc_id, passage.page, [], passage),
              })]
            : null),
        // A table's row reads best under its header; its cells are the passage's own words.
        passage.cells?.some((cell) => cell.column)
          ? renderRow(passage.cells)
          : el("span", { class: "related-text", text: passage.text })))));
}

function renderRow(cells) {
  // A table's row under its header, as the page draws it: the labels say what each cell is.
  const filled = cells.filter((cell) => cell.text);
  return el("table", { class: "related-row", "aria-label": t("tableRow") },
    el("thead", {}, el("tr", {}, filled.map((cell) => el("th", { scope: "col", text: cell.column })))),
    el("tbody", {}, el("tr", {}, filled.map((cell) => el("td", { text: cell.text })))));
}

function withheldSummary(withheld) {
  const count = withheld.length;
  if (withheld.every((statement) => statement.state === "BLOCKED")) return t(count === 1 ? "withheldBlockedOne" : "withheldBlocked", { count });
  if (withheld.every((statement) => statement.state === "UNVERIFIED")) return t(count === 1 ? "withheldUnstatedOne" : "withheldUnstated", { count });
  return t("withheldMixed", { count });
}

/** A statement's state in words and colour (not only in the tooltip): VERIFIED, UNVERIFIED, BLOCKED. */
function stateBadge(value) {
  return el("span", { class: `state-badge state-${value.toLowerCase()}`, dataset: { state: value }, text: stateLabel(value) });
}

function renderWithheld(turn, withheld, byId, response) {
  // Closed by default: the reader sees that something was held back and why, and opens it to
  // read the statement beside the quote that overruled it.
  return el("details", { class: "withheld" },
    el("summary", { text: withheldSummary(withheld) }),
    el("ul", {}, withheld.map((statement) => {
      const item = el("li", { class: `withheld-${statement.state.toLowerCase()}` },
        el("span", { class: "withheld-text", text: statement.text }),
        stateBadge(statement.state),
        el("span", { class: "withheld-reason", text: statement.reason }));
      for (const citationId of statement.citation_ids) {
        const citation = byId.get(citationId);
        if (citation) {
          item.append(el("blockquote", { class: "withheld-quote", text: citation.quote }), renderChip(turn, citation, response));
        }
      }
      return item;
    })));
}

function sourceOf(response, docId) {
  return (response.sources || []).find((source) => source.doc_id === docId);
}

function renderChip(turn, citation, response) {
  const source = sourceOf(response, citation.doc_id);
  const deleted = source?.status === "deleted";
  const active = state.active?.questionId === turn.questionId && state.active.citationIds.includes(citation.id);
  return el("button", {
    type: "button",
    class: `chip${deleted ? " chip-deleted" : ""}${active ? " chip-active" : ""}`,
    "aria-pressed": active ? "true" : "false",
    "aria-label": t("citation", { id: citation.id, name: citation.file_name, page: citation.page }),
    dataset: { citation: citation.id, questionId: turn.questionId },
    onclick: () => selectAnswer(turn.questionId, [citation.id]),
    text: citation.id,
  });
}

function sealIcon() {
  // Drawn, not an emoji: a machine without an emoji font would show an empty box.
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "seal-icon");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML =
    '<path d="M8 1 2 3.5v4C2 11 4.6 14 8 15c3.4-1 6-4 6-7.5v-4z" fill="currentColor" opacity=".18"/>' +
    '<path d="M8 1 2 3.5v4C2 11 4.6 14 8 15c3.4-1 6-4 6-7.5v-4z" fill="none" stroke="currentColor"/>' +
    '<path d="m5.3 8 1.9 1.9 3.6-3.8" fill="none" stroke="currentColor" stroke-width="1.5"/>';
  return svg;
}

// The check of each answer's certificate, once per certificate: renders repeat, requests don't.
const certificateChecks = new Map();

function checkCertificate(certificateId, response, question) {
  const key = `${certificateId}\u0000${JSON.stringify(response.statements || [])}\u0000${response.answer || ""}`;
  if (!certificateChecks.has(key)) {
    certificateChecks.set(key, (async () => {
      const [check, certificate] = await Promise.all([
        api.verifyCertificate(certificateId),
        api.certificate(certificateId),
      ]);
      return { check, differences: differencesFromShown(response, question, certificate) };
    })());
  }
  return certificateChecks.get(key);
}

function differencesFromShown(response, question, certificate) {
  // What the page shows, held against what the certificate sealed: the question, every
  // statement's words and state, every quote. A valid certificate beside an answer edited
  // after sealing must fail here, not pass on the certificate alone.
  const differences = [];
  if (question != null && question !== certificate.question) differences.push("question");
  const claims = new Map((certificate.claims || []).map((claim) => [claim.id, claim]));
  const statements = response.statements || [];
  statements.forEach((statement, index) => {
    const sealed = statement.claim_ids.map((id) => claims.get(id));
    const where = `statement ${index + 1}`;
    if (!sealed.length || sealed.some((claim) => !claim || !claim.decision)) {
      differences.push(`${where}: not in the certificate`);
      return;
    }
    if (sealed.some((claim) => (claim.source ?? claim.text) !== statement.text)) differences.push(`${where}: text`);
    const states = sealed.map((claim) => claim.decision.state);
    const expected = states.includes("BLOCKED") ? "BLOCKED" : states.every((state) => state === "VERIFIED") ? "VERIFIED" : "UNVERIFIED";
    const consistent = statement.state === expected || (expected === "VERIFIED" && statement.state === "UNVERIFIED");
    if (!consistent || (statement.shown && statement.state === "BLOCKED")) differences.push(`${where}: state`);
  });
  if (!statements.length && response.answer) {
    const sealedAnswer = certificate.shown?.answer ?? certificate.answer;
    if (response.answer !== sealedAnswer) differences.push("answer");
  }
  const citations = new Map((certificate.citations || []).map((citation) => [citation.id, citation]));
  for (const citation of response.citations || []) {
    const sealed = citations.get(citation.id);
    if (!sealed || sealed.quote !== citation.quote || sealed.doc_id !== citation.doc_id || sealed.page !== citation.page) {
      differences.push(`quote ${citation.id}`);
    }
  }
  return differences;
}

// The answer's standing since it was sealed: the last of its certificate's re-checks, once per
// certificate (forgotten when the badge is clicked or a document is deleted or indexed). null
// when it was never re-checked, or the route is not offered or fails: the badge says no more.
const standings = new Map();

function certificateStanding(certificateId) {
  if (!standings.has(certificateId)) {
    standings.set(
      certificateId,
      api.certificateRechecks(certificateId).then(
        (rechecks) => (Array.isArray(rechecks) && rechecks.length ? rechecks[rechecks.length - 1] : null),
        () => null,
      ),
    );
  }
  return standings.get(certificateId);
}

function formatCheckedAt(value) {
  const date = new Date(value);
  if (!value || Number.isNaN(date.getTime())) return value || "";
  try {
    return new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(date);
  } catch {
    return date.toISOString();
  }
}

function warningIcon() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "standing-icon");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML =
    '<path d="M8 1.5 15 14H1z" fill="currentColor" opacity=".18" stroke="currentColor" stroke-linejoin="round"/>' +
    '<path d="M8 6v4" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>' +
    '<circle cx="8" cy="12" r=".9" fill="currentColor"/>';
  return svg;
}

/** Shows a re-check on node: a quiet line when CURRENT, else a warning in words and colour. */
function showStanding(node, recheck) {
  node.replaceChildren();
  node.removeAttribute("title");
  if (!recheck || !recheck.standing) {
    node.hidden = true;
    node.className = "certificate-standing";
    delete node.dataset.standing;
    return;
  }
  const standing = recheck.standing;
  const date = formatCheckedAt(recheck.checked_at);
  node.hidden = false;
  node.dataset.standing = standing;
  node.dataset.checkedAt = recheck.checked_at || "";
  if (standing === "CURRENT") {
    node.className = "certificate-standing standing-current";
    node.textContent = t("standingCurrent", { date });
    node.title = t("standingTip");
    return;
  }
  node.className = `certificate-standing standing-warning standing-${standing.toLowerCase()}`;
  const notes = (recheck.findings || [])
    .filter((finding) => finding.standing !== "CURRENT" && finding.note)
    .map((finding) => `${finding.file_name}, p. ${finding.page}: ${finding.note}`);
  node.title = [t("standingTip"), ...notes].join("\n");
  node.append(
    warningIcon(),
    el("strong", { class: "standing-label", text: standingLabel(standing) }),
    " ",
    el("span", { class: "standing-summary", text: recheck.summary || "" }),
    " ",
    el("span", { class: "standing-date", text: `(${t("standingChecked", { date })})` }),
  );
}

function renderCertificate(turn, response) {
  const certificateId = response.certificate_id;
  const result = el("span", { class: "certificate-result", role: "status", "aria-live": "polite" });
  const standing = el("p", {
    class: "certificate-standing",
    role: "status",
    "aria-live": "polite",
    hidden: true,
    dataset: { certificate: certificateId },
  });
  const run = async (fresh) => {
    badge.disabled = true;
    result.className = "certificate-result";
    result.textContent = t("verifying");
    if (fresh) {
      certificateChecks.clear();
      standings.delete(certificateId);
    }
    // The standing comes on its own: never held up by, nor holding up, the certificate's check.
    certificateStanding(certificateId).then((recheck) => showStanding(standing, recheck));
    try {
      const { check, differences } = await checkCertificate(certificateId, response, turn.question);
      const matches = differences.length === 0;
      result.classList.add(check.valid && matches ? "certificate-valid" : "certificate-invalid");
      result.dataset.shownMatches = String(matches);
      if (!check.valid) result.textContent = t("certificateInvalid", { field: check.first_difference || "seal" });
      else if (!matches) result.textContent = t("certificateMismatch", { what: differences.join(", ") });
      else result.textContent = t("certificateValid");
    } catch (error) {
      result.classList.add("certificate-invalid");
      result.textContent = t("certificateError", { message: error.message });
    } finally {
      badge.disabled = false;
    }
  };
  const badge = el("button", {
    type: "button",
    class: "certificate-badge",
    "aria-label": t("verifyCertificate", { id: certificateId }),
    dataset: { certificate: certificateId },
    onclick: () => run(true),
  }, sealIcon(), `${t("certificate")} ${certificateId.slice(0, 13)}…`);
  // Checked as soon as it is shown: the badge speaks for the answer on screen.
  run(false);
  return el("div", { class: "certificate" }, badge, result, standing);
}

// --- sources and the page viewer ---------------------------------------------------------------

function selectAnswer(questionId, citationIds = [], { openViewer = true } = {}) {
  const turn = state.turns.find((candidate) => candidate.questionId === questionId);
  if (!turn || !turn.response) return;
  const response = turn.response;
  const citations = (response.citations || []).filter((citation) => citationIds.includes(citation.id));
  const first = citations[0];
  state.active = {
    questionId,
    citationIds,
    docId: first?.doc_id ?? null,
    page: first?.page ?? null,
    quote: first?.quote ?? null,
  };
  for (const node of document.querySelectorAll(".turn")) {
    node.classList.toggle("turn-selected", node.dataset.questionId === questionId);
  }
  for (const chip of document.querySelectorAll(".chip")) {
    const on = chip.dataset.questionId === questionId && citationIds.includes(chip.dataset.citation);
    chip.classList.toggle("chip-active", on);
    chip.setAttribute("aria-pressed", on ? "true" : "false");
  }
  renderSources(response);
  if (first && openViewer) openPage(response, first.doc_id, first.page, citationIds);
  else if (!first) closeViewer();
}

/** "answers your question: likely / possibly", from the reader's probability for the quote (the
 * citation's own, else that of the statement citing it); nothing when the reader did not judge. */
function answersYourQuestion(citation, response) {
  if (!citation) return [];
  let score = citation.answers;
  if (score == null) {
    const statement = (response.statements || []).find((item) => item.citation_ids.includes(citation.id));
    score = statement?.answers_question;
  }
  if (score == null) return [];
  const how = t(score >= LIKELY ? "likely" : "possibly");
  return [" · ", el("span", {
    class: "card-answers",
    dataset: { answers: formatScore(score) },
    title: t("answersYourQuestionTip", { likely: formatScore(score) }),
    text: t("answersYourQuestion", { how }),
  })];
}

function renderSources(response) {
  const list = $("sources");
  const sources = response.sources || [];
  $("no-sources").hidden = sources.length > 0;
  list.replaceChildren(
    ...sources.map((source) => {
      const deleted = source.status === "deleted";
      const highlighted = state.active?.docId === source.doc_id;
      // The selected citation's own excerpt when this card is the highlighted one: its quote,
      // else one on its page (a file cited several times on one page has one excerpt each).
      const excerpts = source.excerpts || [];
      const excerpt =
        (highlighted &&
          (excerpts.find((item) => item.text === state.active.quote) ||
            excerpts.find((item) => item.page === state.active.page))) ||
        excerpts[0];
      const pages = [...new Set(excerpts.map((item) => item.page))].sort((a, b) => a - b);
      // The heading the quote stands under, as the CLI prints it: "From £100,000 to £499,999:
      // the Director ..." says what it decides only under "4. Approval of Spend".
      const cited = (response.citations || []).find(
        (citation) => citation.doc_id === source.doc_id && citation.quote === excerpt?.text,
      );
      const section = cited?.section;
      const content = [
        el("div", { class: "card-head" },
          sourceIcon(source),
          el("span", { class: "card-name", text: source.file_name })),
        deleted
          ? el("p", { class: "card-unavailable", text: t("fileUnavailable"), title: t("fileUnavailableHint") })
          : el("p", { class: "card-meta" },
              el("span", { class: "card-pages", text: pages.map((n) => t("page", { n })).join(", ") }),
              " · ",
              el("span", { class: "card-quoted", text: t("quoted") }),
              ...answersYourQuestion(cited, response)),
        !deleted && excerpt && section ? el("p", { class: "card-section", text: t("underSection", { section }) }) : null,
        !deleted && excerpt ? el("blockquote", { class: "card-excerpt", text: excerpt.text }) : null,
      ];
      const card = deleted
        ? el("div", { class: "card card-deleted", "aria-disabled": "true" }, content)
        : el("button", {
            type: "button",
            class: "card",
            "aria-label": t("openSource", { name: source.file_name, page: excerpt?.page ?? 1 }),
            onclick: () => openSourceCard(response, source),
          }, content);
      if (highlighted) {
        card.classList.add("card-highlighted");
        card.setAttribute("aria-current", "true");
      }
      return el("li", { class: "source", dataset: { docId: source.doc_id, status: source.status || "available" } }, card);
    }),
  );
}

function openSourceCard(response, source) {
  const page = source.excerpts?.[0]?.page ?? 1;
  const ids = (response.citations || [])
    .filter((citation) => citation.doc_id === source.doc_id && citation.page === page)
    .map((citation) => citation.id);
  selectAnswer(state.active.questionId, ids);
}

function openPage(response, docId, page, activeIds, reading = null) {
  // `reading`: a related passage to box on its page (an answer's citations are boxed anyway).
  const source = sourceOf(response, docId);
  const viewer = $("viewer");
  const image = $("page-image");
  const boxes = $("page-boxes");
  const name = source?.file_name ?? reading?.file_name ?? docId;
  viewer.hidden = false;
  viewer.dataset.docId = docId;
  viewer.dataset.page = String(page);
  $("viewer-title").textContent = t("viewerTitle", { name, n: page });
  boxes.replaceChildren();
  if (source?.status === "deleted") {
    $("page-frame").hidden = true;
    $("viewer-message").hidden = false;
    $("viewer-message").textContent = t("pageGone");
    $("viewer-ocr").hidden = true;
    viewer.scrollIntoView({ block: "nearest", behavior: "smooth" });
    return;
  }
  $("page-frame").hidden = false;
  $("viewer-message").hidden = true;
  showOcrNote(docId, page);
  // Every citation of this answer on this page gets a box; the chosen ones are emphasised. A
  // sentence a page break cut has boxes on both pages.
  const onPage = (response.citations || []).filter(
    (citation) => citation.doc_id === docId && (citation.boxes || []).some((box) => box.page === page),
  );
  showContinuation(response, docId, page, activeIds);
  for (const citation of onPage) {
    for (const box of citation.boxes || []) {
      if (box.page !== page) continue;
      const active = activeIds.includes(citation.id);
      boxes.append(el("div", {
        class: `page-box${active ? " page-box-active" : ""}`,
        dataset: { citation: citation.id },
        style: boxStyle(box),
      }));
    }
  }
  for (const box of reading?.boxes || []) {
    if (box.page !== page) continue;
    boxes.append(el("div", {
      class: "page-box page-box-active page-box-reading",
      style: boxStyle(box),
    }));
  }
  image.alt = t("pageAlt", { n: page, name });
  const reveal = () => {
    const target = boxes.querySelector(".page-box-active") || viewer;
    target.scrollIntoView({ block: "center", behavior: "instant" });
  };
  const key = `${docId}/${page}`;
  if (image.dataset.pageKey !== key) {
    image.dataset.pageKey = key;
    showPageImage(image, docId, page, reveal);
  } else {
    reveal();
  }
}

// A Box (PDF points, origin top-left) as a position on the page image, in shares of its size.
function boxStyle(box) {
  return [
    `left:${(box.x0 / box.page_width) * 100}%`,
    `top:${(box.y0 / box.page_height) * 100}%`,
    `width:${((box.x1 - box.x0) / box.page_width) * 100}%`,
    `height:${((box.y1 - box.y0) / box.page_height) * 100}%`,
  ].join(";");
}

// A chosen quote that goes on past this page says where, and opens that page on request.
function showContinuation(response, docId, page, activeIds) {
  const note = $("viewer-continued");
  const later = (response.citations || [])
    .filter((citation) => citation.doc_id === docId && activeIds.includes(citation.id))
    .flatMap((citation) => (citation.boxes || []).map((box) => box.page))
    .filter((number) => number > page);
  note.hidden = later.length === 0;
  if (note.hidden) return;
  const next = Math.min(...later);
  note.replaceChildren(
    t("quoteContinues", { n: next }),
    " ",
    el("button", {
      type: "button",
      class: "link-button",
      text: t("quoteContinuesOpen", { n: next }),
      onclick: () => openPage(response, docId, next, activeIds),
    }),
  );
}

// Says so when the page shown was read by OCR: its quotes are what OCR read, not a text layer.
async function showOcrNote(docId, page) {
  const note = $("viewer-ocr");
  note.hidden = true;
  let record;
  try {
    record = await api.document(docId);
  } catch {
    return; // the note is a courtesy: the page and its boxes stand without it
  }
  const viewer = $("viewer");
  if (viewer.dataset.docId !== docId || viewer.dataset.page !== String(page)) return;
  const read = (record.ocr_pages || []).find((item) => item.page === page);
  if (!read) return;
  note.textContent = t("pageReadByOcr", { engine: read.engine, confidence: Math.round(read.confidence * 100) });
  note.hidden = false;
}

// The object URL of the page image shown, revoked when another replaces it.
let pageObjectUrl = null;

async function showPageImage(image, docId, page, reveal) {
  const key = image.dataset.pageKey;
  let blob;
  try {
    blob = await api.pageImage(docId, page);
  } catch (error) {
    if (image.dataset.pageKey !== key) return; // another page was asked for meanwhile
    delete image.dataset.pageKey; // asked again next time
    $("page-frame").hidden = true;
    $("viewer-message").hidden = false;
    $("viewer-message").textContent =
      error instanceof ApiError && error.status === 410 ? t("pageGone") : t("pageFailed", { reason: error.message });
    return;
  }
  if (image.dataset.pageKey !== key) return;
  const previous = pageObjectUrl;
  pageObjectUrl = URL.createObjectURL(blob);
  image.addEventListener("load", reveal, { once: true });
  image.src = pageObjectUrl;
  if (previous) URL.revokeObjectURL(previous);
}

function closeViewer() {
  $("viewer").hidden = true;
}

// --- uploads and the library --------------------------------------------------------------------

async function uploadFiles(files) {
  for (const file of files) uploadFile(file);
}

async function uploadFile(file) {
  const status = el("span", { class: "upload-status", text: t("uploading") });
  const reason = el("span", { class: "upload-reason" });
  const item = el("li", { class: "upload", dataset: { fileName: file.name } },
    el("span", { class: "upload-name", text: file.name }), " ", status, " ", reason);
  $("uploads").prepend(item);
  const show = (record) => {
    status.textContent = statusLabel(record.status);
    status.dataset.status = record.status;
    item.dataset.status = record.status;
    reason.textContent = record.reason || "";
  };
  try {
    if (file.size === 0) throw new Error(t("fileEmpty"));
    let upload;
    try {
      upload = await api.upload(file);
    } catch (error) {
      // Too large for the API itself: a server that offers presigned uploads takes it that way.
      if (!(error instanceof ApiError && error.status === 413)) throw error;
      upload = await api.uploadTarget(file.name).catch(() => ({}));
      if (!upload.upload) throw error;
    }
    if (upload.upload) await sendToTarget(upload.upload, file);
    if (upload.document) show(upload.document);
    else status.textContent = t("waitingForFile");
    for (;;) {
      await sleep(POLL_MS);
      let record;
      try {
        record = await api.document(upload.doc_id);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) continue; // the bucket's event is on its way
        throw error;
      }
      show(record);
      if (DOCUMENT_DONE.has(record.status)) break;
    }
    standings.clear(); // a new version re-checks the answers citing it: ask again when shown
  } catch (error) {
    status.textContent = statusLabel("FAILED");
    item.dataset.status = "FAILED";
    reason.textContent = error.message;
  }
  refreshDocuments();
}

/** Asks before deleting, naming the file and how many certified answers cite it (when the API
 * says: GET /v1/documents/{id}/citations; without it, the question names the file alone). */
async function confirmDelete(record) {
  let count = null;
  try {
    const cited = await api.documentCitations(record.doc_id);
    if (typeof cited?.count === "number") count = cited.count;
  } catch {
    count = null; // not offered (404), or unreachable: ask without the count
  }
  const name = record.file_name;
  const message =
    count === null || count === 0
      ? t("confirmDelete", { name })
      : t(count === 1 ? "confirmDeleteCitedOne" : "confirmDeleteCited", { name, count });
  return window.confirm(message);
}

async function refreshDocuments() {
  let documents = [];
  try {
    documents = await api.documents();
  } catch {
    return;
  }
  documents.sort((a, b) => a.file_name.localeCompare(b.file_name));
  $("documents").replaceChildren(
    ...documents.map((record) =>
      el("li", { class: `document document-${record.status.toLowerCase()}`, dataset: { docId: record.doc_id } },
        el("span", { class: "document-name", text: record.file_name }),
        el("span", { class: "document-status", text: statusLabel(record.status) }),
        record.pages
          ? el("span", {
              class: "document-pages",
              text: t(record.pages === 1 ? "onePage" : "pages", { n: record.pages }),
            })
          : null,
        record.reason ? el("span", { class: "document-reason", text: record.reason }) : null,
        record.status === "DELETED"
          ? null
          : el("button", {
              type: "button",
              class: "document-delete",
              "aria-label": t("deleteLabel", { name: record.file_name }),
              text: t("delete"),
              onclick: async () => {
                if (!(await confirmDelete(record))) return;
                try {
                  await api.deleteDocument(record.doc_id);
                } catch (error) {
                  showStatus(t("error", { message: error.message }));
                }
                standings.clear(); // its answers were re-checked: SOURCE_DELETED
                await refreshDocuments();
                await refreshConversation();
              },
            }),
      ),
    ),
  );
}

// --- start ----------------------------------------------------------------------------------------

// --- sign-in (ApiAuth=COGNITO) ------------------------------------------------------------------

function showSignedIn() {
  const button = $("sign-in");
  const signedIn = Boolean(auth.token());
  button.textContent = t(signedIn ? "signedIn" : "signIn");
  button.toggleAttribute("data-signed-in", signedIn);
  $("sign-out").hidden = !signedIn;
}

function openSignIn(reason = "") {
  const dialog = $("sign-in-dialog");
  dialog.returnValue = "";
  $("sign-in-reason").textContent = reason;
  $("id-token").value = "";
  if (!dialog.open) dialog.showModal();
  $("id-token").focus();
}

function wireSignIn() {
  const dialog = $("sign-in-dialog");
  $("sign-in").addEventListener("click", () => openSignIn());
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "save") auth.signIn($("id-token").value);
    else if (dialog.returnValue === "sign-out") auth.signOut();
    else return;
    showSignedIn();
    refreshDocuments();
  });
  window.addEventListener("certiq:unauthorised", (event) => {
    openSignIn(t("signInNeeded", { status: event.detail.status }));
  });
}

function languageName(code) {
  try {
    return new Intl.DisplayNames([language()], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}

function applyQuestionHint() {
  // Without a translation model a question is searched as written: in any language but the
  // documents' it finds next to nothing, so the page never suggests asking in one.
  const capabilities = state.capabilities;
  const hint = $("translation-hint");
  const mismatch = Boolean(capabilities && !capabilities.translation && language() !== capabilities.index_language);
  hint.hidden = !mismatch;
  if (!mismatch) return;
  const name = languageName(capabilities.index_language);
  const example = labelIn(capabilities.index_language, "questionPlaceholder");
  $("question").placeholder = example
    ? t("questionPlaceholderIn", { language: name, example })
    : t("questionPlaceholderAny", { language: name });
  hint.textContent = t("noTranslation", { language: name });
}

async function loadCapabilities() {
  // A server still starting may miss the first request: ask a few times before going without.
  for (let attempt = 0; attempt < 3 && !state.capabilities; attempt += 1) {
    try {
      state.capabilities = await api.capabilities();
    } catch {
      await sleep(500);
    }
  }
  applyQuestionHint(); // without an answer: no hint rather than a wrong one
}

function applyLanguage() {
  translatePage();
  applyQuestionHint();
  showSignedIn();
  $("language-toggle").textContent = t("languageToggle");
  renderConversation();
  if (state.active) selectAnswer(state.active.questionId, state.active.citationIds, { openViewer: !$("viewer").hidden });
  refreshDocuments();
}

function wire() {
  $("ask-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const question = $("question").value.trim();
    if (!question) return;
    $("question").value = "";
    ask(question);
  });
  $("question").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      $("ask-form").requestSubmit();
    }
  });
  $("language-toggle").addEventListener("click", () => {
    setLanguage(language() === "fr" ? "en" : "fr");
    applyLanguage();
  });
  $("new-conversation").addEventListener("click", () => {
    rememberConversation(newConversationId());
    state.turns = [];
    state.active = null;
    renderConversation();
    $("sources").replaceChildren();
    $("no-sources").hidden = false;
    closeViewer();
    $("question").focus();
  });
  $("viewer-close").addEventListener("click", closeViewer);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("viewer").hidden) closeViewer();
  });
  $("file-input").addEventListener("change", (event) => {
    uploadFiles([...event.target.files]);
    event.target.value = "";
  });
  const zone = $("drop-zone");
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("drop-active");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("drop-active"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("drop-active");
    uploadFiles([...event.dataTransfer.files]);
  });
}

auth.fromFragment();
setLanguage(language());
wire();
wireSignIn();
applyLanguage();
Promise.allSettled([restoreConversation(), loadCapabilities()]).finally(() => document.body.setAttribute("data-ready", "true"));
