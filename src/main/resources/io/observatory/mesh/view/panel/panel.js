// The mesh panel of the status page: a hub's servers with their captions, its routes, and the witness × entry point
// matrix. The page imports this module, gives it a <section> and calls render with the data of every "mesh" event:
// the whole view first (io.observatory.mesh.view.MeshPage), then what changed (MeshPageChanges, "changes": true),
// which the panel applies to the view it holds and redraws only the servers, routes and matrix rows it touches. On an
// instance that is no hub the view has no servers and the panel stays hidden.
'use strict';

const LEGEND = [
  ['cell ok', 'ok', 'last probe succeeded'],
  ['cell failing', '2', 'failed probes in a row, below the streak'],
  ['cell vote', '3', 'a vote: the streak is reached, until a streak of successes'],
  ['cell own', 'own', 'its own server, not probed'],
  ['badge checker', 'checker', 'trusted alone'],
  ['badge unreliable', 'unreliable', 'its votes mark, and remove nobody'],
  ['badge stale', 'stale', 'no report within no-data-after'],
];

// The server whose card is open, if any; its card is fetched again with each mesh event while open, and only the
// answer to the latest fetch is shown.
let open = null;
let latest = 0;

// The view the panel holds: the last whole view with every later event's changes applied. Servers, witnesses and
// routes keep their fleet order (changes never add or remove one: a changed fleet comes whole).
let held = null;

export function render(section, data, helpers) {
  let changes = null;
  if (data.changes) {
    if (held === null) return; // a stream's first event is whole
    changes = data;
    apply(held, changes);
  } else {
    held = hold(data);
  }
  section.hidden = held.servers.size === 0;
  if (section.hidden) return;
  if (!section.querySelector('#matrix')) build(section, helpers.text);
  drawServers(section, changes, helpers);
  drawRoutes(section, changes, helpers);
  drawMatrix(section, changes, helpers);
  if (open !== null) showCard(section, helpers);
}

// The whole view, keyed: servers, witnesses, routes and captions by name, cells by witness and entry point.
function hold(view) {
  return {
    streak: view.streak,
    servers: new Map(view.servers.map((server) => [server.name, server])),
    witnesses: new Map(view.witnesses.map((witness) => [witness.name, witness])),
    routes: new Map(view.routes.map((route) => [route.route, route])),
    captions: new Map(Object.entries(view.captions)),
    stale: new Set(view.stale),
    cells: new Map(view.cells.map((found) => [cellKey(found), found])),
    matrixCells: view.matrix_cells,
    matrixDrawn: view.matrix_drawn,
  };
}

// Applies one event's changes: each server, witness, route and cell it carries replaces the one held, a carried
// witness is stale only when the event says so, and the removed cells go.
function apply(view, changes) {
  for (const server of changes.servers) {
    view.servers.set(server.name, server);
    view.captions.set(server.name, changes.captions[server.name]);
  }
  for (const witness of changes.witnesses) {
    view.witnesses.set(witness.name, witness);
    view.stale.delete(witness.name);
  }
  for (const name of changes.stale) view.stale.add(name);
  for (const route of changes.routes) view.routes.set(route.route, route);
  for (const found of changes.cells) view.cells.set(cellKey(found), found);
  for (const key of changes.removed_cells) view.cells.delete(cellKey(key));
  view.matrixCells = changes.matrix_cells;
}

function cellKey(cell) {
  return cell.witness + ' ' + cell.tag;
}

// Replaces the element of container whose data-<key> is name with fresh; false when there is none (then the caller
// draws the whole, in fleet order).
function replaceItem(container, key, name, fresh) {
  const old = container.querySelector('[data-' + key + '="' + CSS.escape(name) + '"]');
  if (old) old.replaceWith(fresh);
  return old !== null;
}

// Every server's line on a whole view; only the changed servers' lines on changes.
function drawServers(section, changes, helpers) {
  const list = section.querySelector('#servers');
  const drawn = changes !== null
    && changes.servers.every((server) => replaceItem(list, 'server', server.name, serverItem(server, section, helpers)));
  if (!drawn) list.replaceChildren(...[...held.servers.values()].map((server) => serverItem(server, section, helpers)));
}

function serverItem(server, section, helpers) {
  const { text } = helpers;
  const li = document.createElement('li');
  li.dataset.server = server.name;
  li.dataset.status = server.status.toLowerCase();
  const dot = document.createElement('span');
  const cut = server.status === 'OK' && server.entry_points.some((entry) => entry.ranked);
  dot.className = 'dot ' + (cut ? 'pair_cut' : server.status.toLowerCase());
  dot.title = server.status.toLowerCase();
  const name = text('button', 'name', server.name);
  name.type = 'button';
  name.title = 'open the card of ' + server.name;
  name.addEventListener('click', () => {
    open = server.name;
    showCard(section, helpers);
  });
  li.append(dot, name, text('span', 'route', ' (' + server.route + ')'),
    text('span', 'caption', held.captions.get(server.name)),
    text('span', 'rotation', server.in_rotation ? 'in rotation' : 'out of rotation'));
  const reasons = [server.reason, ...server.entry_points.map((entry) => entry.reason)].filter(Boolean);
  if (reasons.length) li.append(text('span', 'reason', reasons.join('; ')));
  if (server.metrics) li.append(metricsLine(server.metrics, text));
  return li;
}

// Every route's row on a whole view; only the changed routes' rows on changes.
function drawRoutes(section, changes, { text, cell }) {
  const body = section.querySelector('#routes');
  const row = (route) => {
    const tr = document.createElement('tr');
    tr.dataset.route = route.route;
    cell(tr, '', route.route);
    cell(tr, 'serves', route.servers.join(', ') || '—');
    const panic = cell(tr, '', '');
    if (route.panic) panic.append(text('span', 'panic', 'PANIC: none in rotation, serving the best'));
    return tr;
  };
  const drawn = changes !== null
    && changes.routes.every((route) => replaceItem(body, 'route', route.route, row(route)));
  if (!drawn) body.replaceChildren(...[...held.routes.values()].map(row));
}

// The matrix: its head (an entry point's title is its server's caption) and a row per witness; on changes, the head
// when a server changed and the rows of the witnesses whose standing or cells changed. A matrix too large to draw is
// a line saying so.
function drawMatrix(section, changes, helpers) {
  const { text } = helpers;
  const matrix = section.querySelector('#matrix');
  if (!held.matrixDrawn) {
    const tr = document.createElement('tr');
    tr.append(text('td', 'matrix-omitted', 'The matrix has ' + held.matrixCells.toLocaleString('en')
      + ' cells, too many to draw: a server\'s card lists who reaches it and whom it reaches.'));
    matrix.replaceChildren(tr);
    return;
  }
  const entries = [...held.servers.values()].flatMap((server) => server.entry_points.map((entry) => ({ server, entry })));
  const head = matrix.querySelector('tr.head');
  if (changes !== null && head !== null) {
    if (changes.servers.length) head.replaceWith(matrixHead(entries, text));
    const rows = new Set(changes.witnesses.map((witness) => witness.name));
    for (const found of [...changes.cells, ...changes.removed_cells]) rows.add(found.witness);
    const drawn = [...rows].every((name) => {
      const witness = held.witnesses.get(name);
      return witness !== undefined && replaceItem(matrix, 'witness', name, witnessRow(witness, entries, helpers));
    });
    if (drawn) return;
  }
  matrix.replaceChildren(matrixHead(entries, text),
    ...[...held.witnesses.values()].map((witness) => witnessRow(witness, entries, helpers)));
}

function matrixHead(entries, text) {
  const head = document.createElement('tr');
  head.className = 'head';
  head.append(text('th', '', 'witness'));
  for (const { server, entry } of entries) {
    const th = text('th', '', entry.tag);
    th.title = held.captions.get(server.name);
    head.append(th);
  }
  return head;
}

function witnessRow(witness, entries, { text, milliseconds }) {
  const tr = document.createElement('tr');
  tr.dataset.witness = witness.name;
  const th = text('th', '', witness.name);
  th.append(text('small', 'site', ' ' + witness.site));
  if (witness.checker) th.append(text('span', 'badge checker', 'checker'));
  if (witness.status === 'UNRELIABLE') {
    const badge = text('span', 'badge unreliable', 'unreliable ' + Math.round(witness.share * 100) + ' %');
    badge.title = witness.reason || '';
    th.append(badge);
  }
  if (held.stale.has(witness.name)) th.append(text('span', 'badge stale', 'stale'));
  tr.append(th);
  for (const { server, entry } of entries) {
    const found = held.cells.get(witness.name + ' ' + entry.tag);
    const td = document.createElement('td');
    td.dataset.tag = entry.tag;
    if (found) {
      const kind = found.vote ? 'vote' : found.failures > 0 ? 'failing' : 'ok';
      td.className = 'cell ' + kind;
      td.textContent = found.failures > 0 ? String(found.failures)
        : found.rtt_micros !== undefined ? milliseconds(found.rtt_micros) : 'ok';
      td.title = found.failures > 0
        ? found.failures + ' failed in a row: ' + (found.error || found.error_kind || 'failed')
        : found.vote
          ? 'a vote until ' + held.streak + ' successes in a row (' + found.successes + ' so far)'
          : 'last probe succeeded';
    } else if (witness.server === server.name) {
      td.className = 'cell own';
      td.textContent = 'own';
      td.title = 'its own server: a witness does not probe it';
    } else {
      td.className = 'cell none';
      td.textContent = '—';
      td.title = 'no report of this entry point';
    }
    tr.append(td);
  }
  return tr;
}

// The open server's card: its status and why, its entry points, who reaches it and whom it reaches, its metrics and
// its last transitions, fetched from status/api/mesh/<server>.
async function showCard(section, { text, milliseconds, detail }) {
  const card = section.querySelector('#card');
  const name = open;
  const ticket = ++latest;
  let data;
  try {
    data = await detail(name);
  } catch (error) {
    if (open !== name || ticket !== latest) return;
    card.hidden = false;
    card.replaceChildren(text('p', 'reason', 'The card of ' + name + ' did not load: ' + error.message));
    return;
  }
  if (open !== name || ticket !== latest) return;
  const server = data.server;
  const close = text('button', 'close', 'close');
  close.type = 'button';
  close.addEventListener('click', () => {
    open = null;
    card.hidden = true;
  });
  const heading = text('h3', '', 'Server ' + server.name + ' — ' + data.caption);
  heading.append(' ', close);
  const parts = [heading,
    text('p', 'rotation', (server.in_rotation ? 'in rotation' : 'out of rotation') + ' in route ' + server.route)];
  if (server.reason) parts.push(text('p', 'reason', server.reason));
  const entries = document.createElement('ul');
  entries.className = 'entries';
  for (const entry of server.entry_points) {
    const li = text('li', '', entry.tag + ': ' + (entry.marks.length ? entry.marks.join(', ') : 'no marks'));
    li.dataset.tag = entry.tag;
    if (entry.reason) li.append(text('span', 'reason', entry.reason + (entry.ranked ? '' : ' (not ranked)')));
    entries.append(li);
  }
  parts.push(text('h4', '', 'Entry points'), entries);
  parts.push(text('h4', '', 'Who reaches it'), pathTable(data.reached_by, 'witness', text, milliseconds));
  parts.push(text('h4', '', 'Whom it reaches'), pathTable(data.reaches, 'tag', text, milliseconds));
  parts.push(text('h4', '', 'Metrics'),
    server.metrics ? metricsLine(server.metrics, text) : text('p', 'reason', 'none reported'));
  const transitions = document.createElement('ol');
  transitions.className = 'transitions';
  for (const transition of data.transitions) {
    const li = text('li', '', '');
    li.append(text('time', '', new Date(transition.time).toLocaleTimeString()), ' ' + transition.change);
    transitions.append(li);
  }
  parts.push(text('h4', '', 'Last transitions'),
    data.transitions.length ? transitions : text('p', 'reason', 'none since the hub started'));
  card.dataset.server = server.name;
  card.hidden = false;
  card.replaceChildren(...parts);
}

// Paths as a table: who (the witness, or the entry point reached), the last result, the streaks and the RTT or error.
function pathTable(paths, who, text, milliseconds) {
  if (!paths.length) return text('p', 'reason', 'no paths reported');
  const table = document.createElement('table');
  table.className = 'paths';
  const head = document.createElement('tr');
  for (const title of [who === 'witness' ? 'witness' : 'entry point', 'last probe', 'in a row', 'rtt or error']) {
    head.append(text('th', '', title));
  }
  table.append(head);
  for (const path of paths) {
    const tr = document.createElement('tr');
    tr.dataset.witness = path.witness;
    tr.dataset.tag = path.tag;
    tr.className = path.vote ? 'vote' : path.reached ? 'ok' : 'failing';
    tr.append(text('td', '', who === 'witness' ? path.witness + ' → ' + path.tag : path.tag),
      text('td', '', path.reached ? 'reached' : 'cannot reach'),
      text('td', '', path.failures > 0 ? path.failures + ' failed' + (path.vote ? ' (a vote)' : '')
        : path.successes + ' succeeded' + (path.vote ? ' (still a vote)' : '')),
      text('td', '', path.rtt_micros !== undefined ? milliseconds(path.rtt_micros) : path.error || ''));
    table.append(tr);
  }
  return table;
}

// What the server's witness last reported of it, e.g. "cpu 12 % · load 0.35 · memory 1.2 GB free of 3.8 GB · disk
// 20 GB free · network in 1.2 kB/s, out 310 B/s · tcp 120", with a stale badge when that report is older than
// no-data-after; a value the witness could not read is left out.
function metricsLine(metrics, text) {
  const parts = [];
  if (metrics.cpu_usage !== undefined) parts.push('cpu ' + Math.round(metrics.cpu_usage * 100) + ' %');
  if (metrics.load1 !== undefined) parts.push('load ' + metrics.load1.toFixed(2));
  if (metrics.memory_available_bytes !== undefined) {
    parts.push('memory ' + size(metrics.memory_available_bytes) + ' free'
      + (metrics.memory_total_bytes !== undefined ? ' of ' + size(metrics.memory_total_bytes) : ''));
  }
  if (metrics.disk_free_bytes !== undefined) parts.push('disk ' + size(metrics.disk_free_bytes) + ' free');
  if (metrics.network_in_bytes_per_second !== undefined) {
    parts.push('network in ' + size(metrics.network_in_bytes_per_second) + '/s, out '
      + size(metrics.network_out_bytes_per_second ?? 0) + '/s');
  }
  if (metrics.tcp_connections !== undefined) parts.push('tcp ' + metrics.tcp_connections);
  for (const extra of metrics.extra || []) parts.push(extra.name + ' ' + extra.value);
  const line = text('span', 'metrics', parts.join(' · '));
  line.title = 'reported ' + new Date(metrics.report_time).toLocaleTimeString();
  if (metrics.stale) line.append(' ', text('span', 'badge stale', 'stale'));
  return line;
}

// Bytes in the unit that keeps one to three digits: 310 B, 1.2 kB, 3.8 GB.
function size(bytes) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return (unit === 0 ? Math.round(value) : value.toFixed(1)) + ' ' + units[unit];
}

// The panel's frame, once: headings, the servers list, the routes table, the matrix and its legend.
function build(section, text) {
  section.classList.add('mesh');
  section.setAttribute('aria-label', 'Mesh');
  const servers = document.createElement('ul');
  servers.id = 'servers';
  servers.className = 'servers';
  const routes = document.createElement('table');
  routes.className = 'routes';
  const routesHead = document.createElement('thead');
  const routesHeadRow = document.createElement('tr');
  routesHeadRow.append(text('th', '', 'Route'), text('th', '', 'Serves'), text('th', '', 'Panic'));
  routesHead.append(routesHeadRow);
  const routesBody = document.createElement('tbody');
  routesBody.id = 'routes';
  routes.append(routesHead, routesBody);
  const top = document.createElement('div');
  top.className = 'mesh-top';
  const left = document.createElement('div');
  left.append(text('h3', '', 'Servers'), servers);
  const right = document.createElement('div');
  right.append(text('h3', '', 'Routes'), routes);
  top.append(left, right);
  const card = document.createElement('div');
  card.id = 'card';
  card.className = 'card';
  card.hidden = true;
  const matrix = document.createElement('table');
  matrix.id = 'matrix';
  matrix.className = 'matrix';
  const legend = document.createElement('p');
  legend.className = 'legend';
  for (const [className, sample, meaning] of LEGEND) {
    legend.append(text('span', className, sample), ' ' + meaning + ' ');
  }
  section.replaceChildren(text('h2', '', 'Mesh'), top, card, text('h3', '', 'Witness × entry point'), matrix, legend);
}
