// English and French labels. The language comes from a saved choice, else navigator.language.

const LABELS = {
  en: {
    skip: "Skip to the question",
    tagline: "Answers that show their sources",
    newConversation: "New conversation",
    languageHint: "Switch the page's language",
    languageToggle: "FR",
    conversation: "Conversation",
    emptyConversation: "Ask a question about your documents.",
    questionLabel: "Your question",
    questionPlaceholder: "How long are backups kept?",
    questionPlaceholderIn: "Ask in {language}, the documents' language: {example}",
    questionPlaceholderAny: "Ask in {language}, the documents' language",
    noTranslation: "No translation model is configured: ask in {language}, the documents' language. A question in another language is searched as written and finds next to nothing.",
    ask: "Ask",
    sources: "Sources",
    noSources: "Sources of the selected answer appear here.",
    closeViewer: "Close the page",
    documents: "Documents",
    dropHint: "Drop PDF files here or choose them",
    library: "Library",
    delete: "Delete",
    deleteLabel: "Delete {name}",
    you: "You",
    certiq: "certiq",
    page: "page {n}",
    pages: "{n} pages",
    onePage: "1 page",
    quoted: "quoted",
    answersYourQuestion: "answers your question: {how}",
    likely: "likely",
    possibly: "possibly",
    answersYourQuestionTip: "certiq's reader: {likely} (0 to 1) that this quote answers your question",
    confirmDelete: "Delete {name}? Its chunks are removed from the index; answers already given keep citing it as a deleted file.",
    confirmDeleteCited: "Delete {name}? {count} certified answers cite it; they will show it as a deleted file.",
    confirmDeleteCitedOne: "Delete {name}? 1 certified answer cites it; it will show it as a deleted file.",
    fileEmpty: "the file is empty",
    underSection: "under \u201c{section}\u201d",
    fileUnavailable: "File unavailable",
    fileUnavailableHint: "This file was deleted after the answer was given.",
    openSource: "Open {name}, page {page}",
    citation: "Citation {id}: {name}, page {page}",
    verified: "Verified",
    unverified: "Unverified",
    state: { VERIFIED: "VERIFIED", UNVERIFIED: "UNVERIFIED", BLOCKED: "BLOCKED" },
    certificate: "Certificate",
    verifyCertificate: "Verify certificate {id}",
    verifying: "Verifying…",
    certificateValid: "Certificate valid: seal and signature check, and it matches what is shown",
    certificateInvalid: "Certificate invalid: {field} changed",
    certificateMismatch: "Not what was certified: {what} differs from the sealed certificate",
    certificateError: "Could not verify: {message}",
    standingCurrent: "Sources unchanged, checked {date}",
    standingChecked: "last checked {date}",
    standingTip: "Re-checked against the documents as they are now",
    standing: { CHANGED: "SOURCE CHANGED", STALE: "OUT OF DATE", SOURCE_DELETED: "SOURCE DELETED" },
    standingOther: "RE-CHECKED",
    noAnswer: "No answer.",
    quotedOffline: "Quoted offline: Verified means each sentence is the documents' own words. Whether it answers your question is for you to judge.",
    answersQuestion: "answers: {likely}",
    answersQuestionTip: "How likely certiq's reader finds that this sentence answers your question (0 to 1)",
    relatedReading: "Related reading (closest passages; none was found to state the answer):",
    tableRow: "A row of a table, under its header",
    relatedUnchecked: "Closest passages, in the documents' language (not checked against the question: it was not translated):",
    withheldBlockedOne: "1 statement withheld: its source says otherwise",
    withheldBlocked: "{count} statements withheld: their sources say otherwise",
    withheldUnstatedOne: "1 statement withheld: its source does not state it",
    withheldUnstated: "{count} statements withheld: their sources do not state them",
    withheldMixed: "{count} statements withheld: their sources say otherwise or do not state them",
    pendingQuestion: "(question being processed)",
    error: "Error: {message}",
    uploading: "Uploading",
    waitingForFile: "Waiting for ingestion",
    viewerTitle: "{name}, page {n}",
    pageAlt: "Page {n} of {name}, with the cited passages outlined",
    pageGone: "This file is no longer available.",
    quoteContinues: "The quote continues on page {n}.",
    quoteContinuesOpen: "Show page {n}",
    readingOpen: "show it on page {n}",
    pageReadByOcr: "This page is a scan: its text was read by OCR ({engine}, {confidence}% confidence). The quotes are what OCR read; check them against the image.",
    pageFailed: "The page could not be shown: {reason}",
    signIn: "Sign in",
    signedIn: "Signed in",
    signInTitle: "Sign in to the API",
    signInHint: "Paste the ID token of your Cognito user (ApiAuth=COGNITO). It is kept in this tab only and sent as Authorization with every request.",
    tokenLabel: "ID token",
    save: "Save",
    signOut: "Sign out",
    cancel: "Cancel",
    signInNeeded: "The API refused the request (HTTP {status}): sign in with a valid token.",
    status: {
      RECEIVED: "Received",
      MODERATING_QUESTION: "Checking the question…",
      RETRIEVING: "Searching the documents…",
      GENERATING_ANSWER: "Writing the answer…",
      VERIFYING: "Verifying each claim…",
      COMPLETE: "Complete",
      NEEDS_CLARIFICATION: "Needs clarification",
      REJECTED: "Rejected",
      FAILED: "Failed",
      QUEUED: "Queued",
      PROCESSING: "Processing",
      INDEXED: "Indexed",
      DELETED: "Deleted",
    },
  },
  fr: {
    skip: "Aller à la question",
    tagline: "Des réponses qui montrent leurs sources",
    newConversation: "Nouvelle conversation",
    languageHint: "Changer la langue de la page",
    languageToggle: "EN",
    conversation: "Conversation",
    emptyConversation: "Posez une question sur vos documents.",
    questionLabel: "Votre question",
    questionPlaceholder: "Combien de temps les sauvegardes sont-elles conservées ?",
    questionPlaceholderIn: "Posez la question en {language}, la langue des documents : {example}",
    questionPlaceholderAny: "Posez la question en {language}, la langue des documents",
    noTranslation: "Aucun modèle de traduction n’est configuré : posez vos questions en {language}, la langue des documents. Une question dans une autre langue est cherchée telle quelle et ne trouve presque rien.",
    ask: "Demander",
    sources: "Sources",
    noSources: "Les sources de la réponse choisie s'affichent ici.",
    closeViewer: "Fermer la page",
    documents: "Documents",
    dropHint: "Déposez des fichiers PDF ici ou choisissez-les",
    library: "Bibliothèque",
    delete: "Supprimer",
    deleteLabel: "Supprimer {name}",
    you: "Vous",
    certiq: "certiq",
    page: "page {n}",
    pages: "{n} pages",
    onePage: "1 page",
    quoted: "cité",
    answersYourQuestion: "répond à votre question : {how}",
    likely: "probablement",
    possibly: "peut-être",
    answersYourQuestionTip: "Lecteur de certiq : {likely} (0 à 1) que cette citation réponde à votre question",
    confirmDelete: "Supprimer {name} ? Ses passages sont retirés de l'index ; les réponses déjà données le citent comme fichier supprimé.",
    confirmDeleteCited: "Supprimer {name} ? {count} réponses certifiées le citent ; elles l'afficheront comme fichier supprimé.",
    confirmDeleteCitedOne: "Supprimer {name} ? 1 réponse certifiée le cite ; elle l'affichera comme fichier supprimé.",
    fileEmpty: "le fichier est vide",
    underSection: "sous \u00ab\u00a0{section}\u00a0\u00bb",
    fileUnavailable: "Fichier indisponible",
    fileUnavailableHint: "Ce fichier a été supprimé après la réponse.",
    openSource: "Ouvrir {name}, page {page}",
    citation: "Citation {id} : {name}, page {page}",
    verified: "Vérifié",
    unverified: "Non vérifié",
    state: { VERIFIED: "VÉRIFIÉ", UNVERIFIED: "NON VÉRIFIÉ", BLOCKED: "BLOQUÉ" },
    certificate: "Certificat",
    verifyCertificate: "Vérifier le certificat {id}",
    verifying: "Vérification…",
    certificateValid: "Certificat valide : sceau et signature vérifiés, conforme à ce qui est affiché",
    certificateInvalid: "Certificat invalide : {field} a changé",
    certificateMismatch: "Ce n’est pas ce qui a été certifié : {what} diffère du certificat scellé",
    certificateError: "Vérification impossible : {message}",
    standingCurrent: "Sources inchangées, vérifiées le {date}",
    standingChecked: "dernière vérification le {date}",
    standingTip: "Vérifiée à nouveau sur les documents tels qu’ils sont aujourd’hui",
    standing: { CHANGED: "SOURCE MODIFIÉE", STALE: "PÉRIMÉE", SOURCE_DELETED: "SOURCE SUPPRIMÉE" },
    standingOther: "REVÉRIFIÉE",
    noAnswer: "Pas de réponse.",
    quotedOffline: "Cité hors ligne : « Vérifié » signifie que chaque phrase est le texte même des documents. Si elle répond à votre question, c'est à vous d'en juger.",
    answersQuestion: "répond : {likely}",
    answersQuestionTip: "Probabilité, selon le lecteur de certiq, que cette phrase réponde à votre question (0 à 1)",
    relatedReading: "À lire (passages les plus proches ; aucun n'a été jugé énoncer la réponse) :",
    tableRow: "Une ligne d'un tableau, sous son en-tête",
    relatedUnchecked: "Passages les plus proches, dans la langue des documents (non vérifiés par rapport à la question, qui n'a pas été traduite) :",
    withheldBlockedOne: "1 affirmation retenue : sa source dit le contraire",
    withheldBlocked: "{count} affirmations retenues : leurs sources disent le contraire",
    withheldUnstatedOne: "1 affirmation retenue : sa source ne l'énonce pas",
    withheldUnstated: "{count} affirmations retenues : leurs sources ne les énoncent pas",
    withheldMixed: "{count} affirmations retenues : leurs sources disent le contraire ou ne les énoncent pas",
    pendingQuestion: "(question en cours de traitement)",
    error: "Erreur : {message}",
    uploading: "Envoi",
    waitingForFile: "En attente de l'ingestion",
    viewerTitle: "{name}, page {n}",
    pageAlt: "Page {n} de {name}, passages cités encadrés",
    pageGone: "Ce fichier n'est plus disponible.",
    quoteContinues: "La citation se poursuit page {n}.",
    quoteContinuesOpen: "Afficher la page {n}",
    readingOpen: "la voir page {n}",
    pageReadByOcr: "Cette page est une image numérisée : son texte a été lu par OCR ({engine}, confiance {confidence} %). Les citations sont ce que l'OCR a lu ; comparez-les à l'image.",
    pageFailed: "La page n'a pas pu être affichée : {reason}",
    signIn: "Se connecter",
    signedIn: "Connecté",
    signInTitle: "Connexion à l'API",
    signInHint: "Collez le jeton d'identité (ID token) de votre utilisateur Cognito (ApiAuth=COGNITO). Il reste dans cet onglet et accompagne chaque requête (Authorization).",
    tokenLabel: "Jeton d'identité",
    save: "Enregistrer",
    signOut: "Se déconnecter",
    cancel: "Annuler",
    signInNeeded: "L'API a refusé la requête (HTTP {status}) : connectez-vous avec un jeton valide.",
    status: {
      RECEIVED: "Reçue",
      MODERATING_QUESTION: "Vérification de la question…",
      RETRIEVING: "Recherche dans les documents…",
      GENERATING_ANSWER: "Rédaction de la réponse…",
      VERIFYING: "Vérification de chaque affirmation…",
      COMPLETE: "Terminée",
      NEEDS_CLARIFICATION: "Précision nécessaire",
      REJECTED: "Refusée",
      FAILED: "Échec",
      QUEUED: "En file",
      PROCESSING: "En traitement",
      INDEXED: "Indexé",
      DELETED: "Supprimé",
    },
  },
};

const STORAGE_KEY = "certiq.language";

export function initialLanguage() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved && saved in LABELS) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

let current = initialLanguage();

export function language() {
  return current;
}

export function setLanguage(code) {
  current = code in LABELS ? code : "en";
  localStorage.setItem(STORAGE_KEY, current);
  document.documentElement.lang = current;
}

/** The label for key in another language, when the page has that language. */
export function labelIn(code, key) {
  return LABELS[code]?.[key];
}

/** The label for key in the current language, with {name} placeholders filled in. */
export function t(key, values = {}) {
  const labels = LABELS[current];
  const template = labels[key] ?? LABELS.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** A statement's render state in words: VERIFIED, UNVERIFIED or BLOCKED, in the page's language. */
export function stateLabel(state) {
  const labels = LABELS[language()].state;
  return labels[state] || state;
}

/** An answer's standing since it was sealed (CHANGED, STALE, SOURCE_DELETED), as a label. */
export function standingLabel(standing) {
  return LABELS[current].standing[standing] ?? LABELS.en.standing[standing] ?? t("standingOther");
}

export function statusLabel(status) {
  return LABELS[current].status[status] ?? LABELS.en.status[status] ?? status;
}

/** Fills in every element marked data-i18n (text), data-i18n-placeholder and data-i18n-label. */
export function translatePage(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-placeholder]")) {
    element.placeholder = t(element.dataset.i18nPlaceholder);
  }
  for (const element of root.querySelectorAll("[data-i18n-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nLabel));
  }
}
