// The incidents panel of the status page: every subject with an incident in the last 90 days, its open incident, its
// availability over 24 h, 7 d and 30 d (computed from incidents) and a strip of 90 days coloured by the worst incident
// of each day; a subject's card lists its incidents. The page imports this module, gives it a <section> and calls
// render with the data of every "incidents" event (io.observatory.incident.history.IncidentPage).
'use strict';

// The subject whose card is open, if any; refetched with each event while open, only the latest answer shown.
let open = null;
let latest = 0;

const WORST = ['none', 'warning', 'critical'];

export function render(section, data, helpers) {
  const { text, cell } = helpers;
  section.hidden = !data.loaded && data.subjects.length === 0;
  if (section.hidden) return;
  if (!section.querySelector('#incident-rows')) build(section, text);
  section.querySelector('#incident-summary').textContent = data.subjects.length === 0
    ? 'No incident in the last 90 days: every outbound and server 100 % available.'
    : data.total_subjects + (data.total_subjects === 1 ? ' subject' : ' subjects')
      + ' with incidents in the last 90 days; every other one 100 % available.';
  section.querySelector('#incident-rows').replaceChildren(...data.subjects.map((subject) => {
    const tr = document.createElement('tr');
    tr.dataset.subject = subject.subject;
    const name = text('button', 'name', subject.subject);
    name.type = 'button';
    name.title = 'open the incidents of ' + subject.subject;
    name.addEventListener('click', () => {
      open = subject;
      showCard(section, helpers);
    });
    const first = cell(tr, 'subject', '');
    first.append(name);
    const now = cell(tr, 'now', '');
    if (subject.open) {
      now.append(text('span', 'kind ' + subject.open.severity, subject.open.kind));
      now.title = subject.open.reason;
    } else {
      now.textContent = 'ok';
    }
    cell(tr, 'availability', percent(subject.availability.day));
    cell(tr, 'availability', percent(subject.availability.week));
    cell(tr, 'availability', percent(subject.availability.month));
    cell(tr, 'strip', '').append(strip(subject.strip));
    return tr;
  }));
  if (open !== null) showCard(section, helpers);
}

function build(section, text) {
  const table = document.createElement('table');
  table.className = 'incidents';
  const head = document.createElement('tr');
  for (const title of ['Subject', 'Now', '24 h', '7 d', '30 d', 'Last 90 days (oldest left)']) {
    head.append(text('th', '', title));
  }
  const thead = document.createElement('thead');
  thead.append(head);
  const rows = document.createElement('tbody');
  rows.id = 'incident-rows';
  table.append(thead, rows);
  const card = document.createElement('div');
  card.id = 'incident-card';
  card.className = 'card';
  card.hidden = true;
  section.replaceChildren(text('h2', '', 'Incidents'), text('p', 'summary', ''), card, table);
  section.querySelector('p.summary').id = 'incident-summary';
}

// 99.95 % with two decimals below 100, "100 %" when nothing was lost.
function percent(share) {
  return share >= 1 ? '100 %' : (Math.floor(share * 10000) / 100).toFixed(2) + ' %';
}

// One bar a day: its worst incident's severity as its class and title.
function strip(days) {
  const bars = document.createElement('span');
  bars.className = 'bars';
  bars.setAttribute('role', 'img');
  const worst = [...days].map(Number);
  const bad = worst.filter((day) => day > 0).length;
  bars.setAttribute('aria-label', bad + ' of ' + worst.length + ' days with incidents');
  worst.forEach((day, index) => {
    const bar = document.createElement('span');
    bar.className = 'bar ' + WORST[day];
    bar.title = (worst.length - 1 - index === 0 ? 'today' : (worst.length - 1 - index) + ' days ago') + ': '
      + (day === 0 ? 'no incident' : WORST[day]);
    bars.append(bar);
  });
  return bars;
}

// The open subject's card: its incidents with start, end, duration and reason, from status/api/incidents/<key>.
async function showCard(section, { text, detail }) {
  const card = section.querySelector('#incident-card');
  const subject = open;
  const ticket = ++latest;
  let data;
  try {
    data = await detail(subject.key);
  } catch (error) {
    if (open !== subject || ticket !== latest) return;
    card.hidden = false;
    card.replaceChildren(text('p', 'reason', 'The incidents of ' + subject.subject + ' did not load: ' + error.message));
    return;
  }
  if (open !== subject || ticket !== latest) return;
  const close = text('button', 'close', 'close');
  close.type = 'button';
  close.addEventListener('click', () => {
    open = null;
    card.hidden = true;
  });
  const heading = text('h3', '', 'Incidents of ' + data.subject);
  heading.append(' ', close);
  const table = document.createElement('table');
  table.className = 'history';
  const head = document.createElement('tr');
  for (const title of ['Kind', 'Start', 'End', 'Duration', 'Reason']) head.append(text('th', '', title));
  table.append(head);
  for (const incident of data.incidents) {
    const tr = document.createElement('tr');
    tr.dataset.id = incident.id;
    tr.append(text('td', 'kind ' + incident.severity, incident.kind),
      text('td', '', time(incident.opened_at)),
      text('td', '', incident.resolved_at ? time(incident.resolved_at) : 'open'),
      text('td', '', duration(incident.duration_seconds)));
    const reason = text('td', 'why', incident.reason);
    if (incident.resolution) reason.append(text('span', 'resolution', ' — ' + incident.resolution));
    for (const vantage of incident.evidence) reason.append(text('span', 'evidence', vantage));
    tr.append(reason);
    table.append(tr);
  }
  card.dataset.subject = data.subject;
  card.hidden = false;
  card.replaceChildren(heading, table);
}

function time(iso) {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

// 3 d 4 h, 2 h 5 min, 12 min 3 s, 45 s.
function duration(seconds) {
  const units = [['d', 86400], ['h', 3600], ['min', 60], ['s', 1]];
  const parts = [];
  let rest = seconds;
  for (const [unit, size] of units) {
    if (rest >= size || (unit === 's' && parts.length === 0)) {
      parts.push(Math.floor(rest / size) + ' ' + unit);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}
