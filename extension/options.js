"use strict";
const api = globalThis.browser ?? globalThis.chrome;
const $ = (id) => document.getElementById(id);

async function render() {
  const { learn = {} } = await api.storage.local.get("learn");
  $("learnAll").checked = learn["*"] !== false;
  const list = $("blocked");
  list.textContent = "";
  for (const site of Object.keys(learn).filter((s) => s !== "*" && learn[s] === false).sort()) {
    const li = document.createElement("li");
    li.textContent = site;
    const b = document.createElement("button");
    b.textContent = "allow";
    b.addEventListener("click", async () => { delete learn[site]; await api.storage.local.set({ learn }); render(); });
    li.append(b);
    list.append(li);
  }
}

$("learnAll").addEventListener("change", async () => {
  const { learn = {} } = await api.storage.local.get("learn");
  learn["*"] = $("learnAll").checked;
  await api.storage.local.set({ learn });
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
