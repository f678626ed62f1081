// The options page: learning (all sites, cold start, the sites that never learn), what the host
// learned, the user's corrections, the folder for saved articles. A list or table is shown only
// when it has rows; else its section says so in a line (no empty table headers).
"use strict";
const api = globalThis.pagesieve.platform.api;
const $ = (id) => document.getElementById(id);

async function render() {
  const { learn = {}, coldStart = false } = await api.storage.local.get(["learn", "coldStart"]);
  $("learnAll").checked = learn["*"] !== false;
  $("coldStart").checked = coldStart === true;
  const list = $("blocked");
  list.textContent = "";
  for (const site of Object.keys(learn).filter((s) => s !== "*" && learn[s] === false).sort()) {
    const li = document.createElement("li");
    li.textContent = site;
    const b = document.createElement("button");
    b.textContent = "allow";
    b.setAttribute("aria-label", `allow ${site} to learn`);
    b.addEventListener("click", async () => { delete learn[site]; await api.storage.local.set({ learn }); render(); });
    li.append(b);
    list.append(li);
  }
  showRows(list, $("blockedEmpty"), list.children.length > 0);
}

// A list or table with rows, or its empty-state line instead.
function showRows(box, emptyLine, any) {
  box.hidden = !any;
  emptyLine.hidden = any;
}

$("learnAll").addEventListener("change", async () => {
  const { learn = {} } = await api.storage.local.get("learn");
  learn["*"] = $("learnAll").checked;
  await api.storage.local.set({ learn });
});
$("coldStart").addEventListener("change", async () => {
  await api.storage.local.set({ coldStart: $("coldStart").checked });
});
$("add").addEventListener("click", async () => {
  const site = $("site").value.trim().replace(/^www\./, "");
  if (!site) return;
  const { learn = {} } = await api.storage.local.get("learn");
  learn[site] = false;
  await api.storage.local.set({ learn });
  $("site").value = "";
  render();
});
render();

async function host(request, fields) {
  const answer = await api.runtime.sendMessage({ type: "pagesieve.host", request, fields: fields || {} });
  if (!answer || !answer.ok) throw new Error((answer && answer.error) || "no answer");
  if (!answer.reply.ok) throw new Error(answer.reply.error.message);
  return answer.reply;
}

async function renderLearned() {
  const body = document.querySelector("#learned tbody");
  body.textContent = "";
  let reply;
  try {
    reply = await host("sites");
  } catch (e) {
    $("hostStatus").textContent = "The pagesieve host does not answer (" + e.message + "); install it: pagesieve install-host (README, Installing).";
    showRows($("learnedBox"), $("hostStatus"), false);
    return;
  }
  $("hostStatus").textContent = reply.sites.length ? "" : "Nothing learned yet.";
  showRows($("learnedBox"), $("hostStatus"), reply.sites.length > 0);
  for (const s of reply.sites) {
    const tr = document.createElement("tr");
    for (const value of [s.site, s.pages, s.entries, s.bytes]) {
      const td = document.createElement("td");
      td.textContent = String(value);
      tr.append(td);
    }
    const td = document.createElement("td");
    const b = document.createElement("button");
    b.textContent = "forget";
    b.setAttribute("aria-label", `forget ${s.site}`);
    b.dataset.site = s.site;
    b.addEventListener("click", async () => { await host("forget", { site: s.site }); renderLearned(); });
    td.append(b);
    tr.append(td);
    body.append(tr);
  }
}

$("forgetAll").addEventListener("click", async () => { await host("forget", { all: true }); renderLearned(); });
renderLearned();

// the folder the host saves articles into (sent with every save; the host checks it)
(async () => {
  const { libraryFolder = "" } = await api.storage.local.get("libraryFolder");
  $("libraryFolder").value = libraryFolder;
  $("saveFolder").addEventListener("click", async () => {
    const folder = $("libraryFolder").value.trim();
    await api.storage.local.set({ libraryFolder: folder });
    $("folderStatus").textContent = folder ? "Saved articles go there from now on." : "Saved articles go to the default folder.";
  });
})();

// the user's right-click corrections ("Hide this" / "Keep this"), newest first
async function renderCorrections() {
  const { snippets = true } = await api.storage.local.get("snippets");
  $("snippets").checked = snippets;
  const body = document.querySelector("#corrections tbody");
  body.textContent = "";
  let reply;
  try {
    reply = await host("labels");
  } catch (e) {
    $("correctionsStatus").textContent = "The pagesieve host does not answer (" + e.message + ").";
    showRows($("corrections"), $("correctionsStatus"), false);
    return;
  }
  $("correctionsStatus").textContent = reply.labels.length ? "" : "No corrections yet: right-click a part of a page and pick Hide this or Keep this.";
  showRows($("corrections"), $("correctionsStatus"), reply.labels.length > 0);
  for (const lab of reply.labels) {
    const tr = document.createElement("tr");
    const reached = lab.reach ? lab.reach.pages - (lab.reach.stays_off || 0) : 0;  // less the pages a "hide" stays off
    const reach = !lab.reach ? "" : reached > 1 ? `${reached} of ${lab.reach.site_pages} pages` : "its page";
    for (const value of [lab.site, lab.label === "noise" ? "hide" : "keep", lab.signature, reach, lab.snippet || ""]) {
      const td = document.createElement("td");
      td.textContent = String(value);
      tr.append(td);
    }
    const remove = document.createElement("button");
    remove.textContent = "remove";
    remove.setAttribute("aria-label", `remove the correction of ${lab.site}`);
    remove.dataset.label = String(lab.id);
    remove.addEventListener("click", async () => {
      const after = await host("labels", { delete: lab.id });
      const { corrected = {} } = await api.storage.local.get("corrected");
      const left = after.sites[lab.site] || 0;
      if (left) corrected[lab.site] = left; else delete corrected[lab.site];
      await api.storage.local.set({ corrected });
      renderCorrections();
    });
    const td = document.createElement("td");
    td.append(remove);
    tr.append(td);
    body.append(tr);
  }
}
$("snippets").addEventListener("change", () => api.storage.local.set({ snippets: $("snippets").checked }));
renderCorrections();

// Consent pop-ups (content/consent.js): storage "consent" = {mode: "optout" | "hide" | "off", onLoad}.
(function consentOptions() {
  const defaults = { mode: "optout", onLoad: false };
  const radios = [...document.querySelectorAll("input[name=consentMode]")];
  const save = async () => {
    const mode = (radios.find((r) => r.checked) || { value: defaults.mode }).value;
    await api.storage.local.set({ consent: { mode, onLoad: $("consentOnLoad").checked } });
  };
  api.storage.local.get("consent").then(({ consent }) => {
    const value = { ...defaults, ...(consent || {}) };
    for (const r of radios) r.checked = r.value === value.mode;
    $("consentOnLoad").checked = value.onLoad === true;
  });
  for (const r of radios) r.addEventListener("change", save);
  $("consentOnLoad").addEventListener("change", save);
})();
