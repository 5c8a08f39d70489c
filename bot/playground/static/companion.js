// The playground's companion page: polls the session's state and renders it.
"use strict";

const words = document.getElementById("words").dataset;
const lang = document.documentElement.lang;
let tableUrl = "";

function api(path, body) {
  const url = `api/${path}?lang=${encodeURIComponent(lang)}`;
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  return fetch(url, init).then((r) => {
    if (!r.ok) throw new Error(`${r.status}`);
    return r.json();
  });
}

// The table page keeps its address when it shows another channel; a fresh query makes the
// already open tab load it again.
function openTable(url) {
  const target = new URL(url || tableUrl);
  target.searchParams.set("shown", String(Date.now()));
  window.open(target.toString(), "meeple-table");
}

function element(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  node.append(...children);
  return node;
}

function renderChannels(channels) {
  const list = document.getElementById("channel-list");
  list.replaceChildren(...channels.map((c) => {
    const label = element("span", {}, `#${c.name} `, element("span", { className: "status" }, c.status));
    const action = c.current
      ? element("span", { className: "current" }, words.showing)
      : element("button", { type: "button", className: "show", onclick: () => show(c.id) }, words.show);
    action.dataset.channel = c.id;
    return element("li", {}, label, action);
  }));
}

function renderDms(dms) {
  document.getElementById("no-dms").hidden = dms.length > 0;
  const list = document.getElementById("dm-list");
  const shown = [...list.children].map((li) => li.dataset.id).join(",");
  if (shown === dms.map((d) => d.id).join(",")) return;
  list.replaceChildren(...dms.map((d) => {
    const text = element("div", { className: "text", innerHTML: d.html });
    const item = element("li", {}, element("time", {}, d.time), text,
      ...d.images.map((src) => element("img", { src, alt: "" })));
    item.dataset.id = d.id;
    return item;
  }));
}

function renderCommands(commands, note) {
  document.getElementById("language-note").textContent = note;
  document.getElementById("command-list").replaceChildren(...commands.map((c) =>
    element("li", {}, element("code", {}, c.name), " ", element("span", {}, c.description))));
}

async function refresh() {
  try {
    const state = await api("state");
    tableUrl = state.tableUrl;
    document.getElementById("open-table").href = tableUrl;
    renderChannels(state.channels);
    renderDms(state.dms);
    renderCommands(state.commands, state.language);
    const restarted = document.getElementById("restarted");
    restarted.hidden = !state.restarted;
    restarted.textContent = state.restarted;
    document.getElementById("stopped").hidden = true;
  } catch (error) {
    document.getElementById("stopped").hidden = false;
  }
}

async function show(channel) {
  const answer = await api("show", { channel });
  await refresh();
  openTable(answer.tableUrl);
}

document.getElementById("open-table").addEventListener("click", (event) => {
  event.preventDefault();
  openTable();
});

document.getElementById("dm-list").addEventListener("click", (event) => {
  const link = event.target.closest("a.jump");
  if (!link) return;
  event.preventDefault();
  show(link.dataset.channel);
});

document.getElementById("lobby-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("lobby-error");
  const answer = await api("lobby", { game: document.getElementById("lobby-game").value });
  error.hidden = answer.ok;
  error.textContent = answer.error || "";
  await refresh();
  if (answer.ok) openTable(answer.tableUrl);
});

document.getElementById("restart").addEventListener("click", async (event) => {
  event.target.disabled = true;
  try {
    await api("restart", {});
  } finally {
    event.target.disabled = false;
    await refresh();
  }
});

document.getElementById("language").addEventListener("change", (event) => {
  const url = new URL(window.location.href);
  url.searchParams.set("lang", event.target.value);
  window.location.href = url.toString();
});

refresh();
setInterval(refresh, 1500);
