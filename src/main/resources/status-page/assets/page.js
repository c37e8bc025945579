// The Observatory status page: plain JavaScript, no build step, nothing fetched but this instance's own data.
// It streams status/api/stream with fetch (not EventSource, which cannot send an Authorization header), applies
// each event to the page of outbounds it shows, and reconnects when the stream ends. The state it shows lives in
// the URL's fragment (prefix, verdicts, offset, rows), so a reload or a shared link shows the same page.
'use strict';

(() => {
  const TOKEN_KEY = 'observatory.api-token';
  const RETRY_MILLIS = [1000, 2000, 5000];
  const SAMPLES = 32; // RTT samples per outbound the server keeps (RttHistory.SAMPLES): the sparkline's width

  const byId = (id) => document.getElementById(id);

  const state = {
    prefix: '',
    verdicts: new Set(),
    offset: 0,
    limit: 100,
    token: sessionStorage.getItem(TOKEN_KEY),
    rows: new Map(),
    elements: new Map(),
    window: [],
    matching: 0,
    total: 0,
    clockOffset: 0,
    controller: null,
    retries: 0,
    retryTimer: 0,
    panels: new Map(),
    // Per panel whose module is still loading, its events so far, in order: a panel takes its part's whole data and
    // then changes to it, so none may be left out. Once the panels are loaded, an event of none of them is dropped.
    pendingPanels: new Map(),
    panelsLoaded: false,
  };

  // ---- the stream ---------------------------------------------------------------------------------------------

  function query() {
    const params = new URLSearchParams();
    if (state.prefix) params.set('prefix', state.prefix);
    if (state.verdicts.size) params.set('verdict', [...state.verdicts].join(','));
    params.set('offset', String(state.offset));
    params.set('limit', String(state.limit));
    return params.toString();
  }

  function authorization() {
    return state.token ? { Authorization: 'Bearer ' + state.token } : {};
  }

  async function connect() {
    if (state.controller) state.controller.abort();
    clearTimeout(state.retryTimer);
    const controller = new AbortController();
    state.controller = controller;
    let snapshot = true;
    live('connecting', 'connecting…');
    try {
      const response = await fetch('status/api/stream?' + query(),
        { headers: authorization(), cache: 'no-store', signal: controller.signal });
      if (response.status === 401) {
        const body = await response.json().catch(() => ({}));
        askForToken(body.reason || 'the token was refused');
        return;
      }
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        throw new Error(body.reason || 'HTTP ' + response.status);
      }
      byId('token').hidden = true;
      byId('outbounds').hidden = false;
      byId('forget').hidden = !state.token;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = parse(block);
          if (event.type === 'outbounds') {
            outbounds(JSON.parse(event.data), snapshot);
            if (snapshot) {
              // Live once the first snapshot is shown, not when the response starts: a proxy may hold the events back.
              live('streaming', 'live');
              state.retries = 0;
            }
            snapshot = false;
          } else if (event.type !== 'message') {
            panel(event.type, JSON.parse(event.data));
          }
        }
      }
      if (!controller.signal.aborted) retry('the stream ended');
    } catch (error) {
      if (!controller.signal.aborted) retry(error.message);
    }
  }

  // One server-sent event: its "event:" name and its "data:" lines joined; comments (":") are keep-alives.
  function parse(block) {
    const event = { type: 'message', data: [] };
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event.type = value;
      else if (field === 'data') event.data.push(value);
    }
    event.data = event.data.join('\n');
    return event;
  }

  function retry(why) {
    const delay = RETRY_MILLIS[Math.min(state.retries, RETRY_MILLIS.length - 1)];
    state.retries++;
    live('retrying', 'reconnecting in ' + delay / 1000 + ' s (' + why + ')');
    state.retryTimer = setTimeout(connect, delay);
  }

  function live(kind, text) {
    const element = byId('live');
    element.className = 'live ' + kind;
    element.textContent = text;
  }

  // Shows the token form; what was shown with a token that is no longer held goes.
  function askForToken(reason) {
    live('locked', 'token needed');
    state.rows.clear();
    state.elements.clear();
    state.window = [];
    byId('rows').replaceChildren();
    for (const { section } of state.panels.values()) section.hidden = true;
    byId('outbounds').hidden = true;
    byId('token').hidden = false;
    byId('token-reason').textContent = state.token ? 'Refused: ' + reason : '';
    byId('token-input').focus();
  }

  // ---- outbounds ----------------------------------------------------------------------------------------------

  function outbounds(page, snapshot) {
    state.clockOffset = page.now - Date.now();
    if (snapshot) {
      state.rows.clear();
      state.elements.clear();
      byId('rows').replaceChildren();
    }
    if (page.window) {
      state.window = page.window;
      const kept = new Set(page.window);
      for (const tag of [...state.rows.keys()]) {
        if (!kept.has(tag)) {
          state.rows.delete(tag);
          state.elements.delete(tag);
        }
      }
    }
    for (const row of page.rows) {
      state.rows.set(row.tag, row);
      state.elements.set(row.tag, rowElement(row));
    }
    byId('rows').replaceChildren(...state.window.map((tag) => state.elements.get(tag)).filter(Boolean));
    state.matching = page.matching;
    state.total = page.total;
    for (const button of document.querySelectorAll('.count')) {
      button.querySelector('b').textContent = (page.counts[button.dataset.verdict] || 0).toLocaleString('en');
    }
    pager();
    if (page.matching > 0 && state.offset >= page.matching) {
      state.offset = Math.floor((page.matching - 1) / state.limit) * state.limit;
      changed();
    }
  }

  function rowElement(row) {
    const tr = document.createElement('tr');
    tr.dataset.tag = row.tag;
    tr.dataset.verdict = row.verdict;
    const name = cell(tr, '', '');
    const dot = document.createElement('span');
    dot.className = 'dot ' + row.verdict;
    dot.title = row.verdict;
    name.append(dot, text('span', 'name', row.tag));
    name.title = row.tag;
    if (row.restored) {
      const badge = text('span', 'badge restored', 'restored');
      badge.title = 'restored from the state file, measured ' + since(row.restored)
          + '; replaced by the next probe';
      name.append(' ', badge);
    }
    cell(tr, 'verdict ' + row.verdict, row.verdict);
    cell(tr, 'state active ' + row.active, row.active);
    cell(tr, 'state passive ' + row.passive, row.passive);
    const sources = cell(tr, 'sources', row.sources.length ? '' : '—');
    for (const source of row.sources) {
      const chip = text('span', 'state ' + source.state, source.source + ' ' + source.state);
      chip.title = source.detail;
      sources.append(chip, ' ');
    }
    const last = row.rtts.length ? row.rtts[row.rtts.length - 1] : null;
    cell(tr, 'rtt', last === null ? '—' : last < 0 ? 'failed' : milliseconds(last));
    cell(tr, 'spark', '').append(sparkline(row.rtts));
    const error = cell(tr, 'error', '');
    if (row.error_kind) error.append(text('span', 'kind', row.error_kind));
    if (row.error) error.append(text('span', 'reason', row.error));
    error.title = row.error || '';
    const ago = cell(tr, 'ago', '');
    ago.dataset.changed = String(row.changed);
    ago.append(text('span', 'when', since(row.changed)), text('small', '', row.change_reason));
    ago.title = row.change_reason;
    return tr;
  }

  function cell(tr, className, content) {
    const td = document.createElement('td');
    if (className) td.className = className;
    if (content) td.textContent = content;
    tr.append(td);
    return td;
  }

  function text(tag, className, content) {
    const element = document.createElement(tag);
    if (className) element.className = className;
    element.textContent = content;
    return element;
  }

  function milliseconds(micros) {
    const millis = micros / 1000;
    return (millis < 10 ? millis.toFixed(1) : Math.round(millis).toLocaleString('en')) + ' ms';
  }

  // The RTT history as an SVG line over the successful probes, failed probes as red marks on the baseline.
  function sparkline(samples) {
    const width = 120;
    const height = 22;
    const svgNs = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(svgNs, 'svg');
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    const max = Math.max(1, ...samples);
    const step = width / (SAMPLES - 1);
    const x = (i) => (width - (samples.length - 1 - i) * step).toFixed(1);
    const points = [];
    samples.forEach((sample, i) => {
      if (sample >= 0) {
        points.push(x(i) + ',' + (height - 2 - (sample / max) * (height - 6)).toFixed(1));
      } else {
        const mark = document.createElementNS(svgNs, 'rect');
        mark.setAttribute('class', 'fail');
        mark.setAttribute('x', String(Math.max(0, x(i) - 1.5)));
        mark.setAttribute('y', String(height - 5));
        mark.setAttribute('width', '3');
        mark.setAttribute('height', '5');
        svg.append(mark);
      }
    });
    if (points.length) {
      const line = document.createElementNS(svgNs, 'polyline');
      line.setAttribute('points', points.join(' '));
      svg.append(line);
      const [cx, cy] = points[points.length - 1].split(',');
      const newest = document.createElementNS(svgNs, 'circle');
      newest.setAttribute('cx', cx);
      newest.setAttribute('cy', cy);
      newest.setAttribute('r', '2');
      svg.append(newest);
    }
    const ok = samples.filter((s) => s >= 0);
    svg.append(Object.assign(document.createElementNS(svgNs, 'title'), {
      textContent: samples.length + ' probes, ' + (samples.length - ok.length) + ' failed'
        + (ok.length ? ', ' + milliseconds(Math.min(...ok)) + ' to ' + milliseconds(Math.max(...ok)) : ''),
    }));
    return svg;
  }

  function since(millis) {
    const seconds = Math.max(0, Math.round((Date.now() + state.clockOffset - millis) / 1000));
    if (seconds < 60) return seconds + ' s ago';
    if (seconds < 3600) return Math.floor(seconds / 60) + ' min ago';
    if (seconds < 86400) return Math.floor(seconds / 3600) + ' h ' + Math.floor(seconds % 3600 / 60) + ' min ago';
    return Math.floor(seconds / 86400) + ' d ago';
  }

  function pager() {
    const first = state.matching ? state.offset + 1 : 0;
    const last = Math.min(state.offset + state.limit, state.matching);
    byId('range').textContent = first.toLocaleString('en') + '–' + last.toLocaleString('en') + ' of '
      + state.matching.toLocaleString('en') + ' shown (' + state.total.toLocaleString('en') + ' outbounds)';
    byId('prev').disabled = state.offset === 0;
    byId('next').disabled = state.offset + state.limit >= state.matching;
    byId('empty').hidden = state.window.length > 0;
  }

  // ---- panels -------------------------------------------------------------------------------------------------

  // The capabilities' panels (status/assets/panels.json), each an ES module with its own style, drawing its part's events
  // into a section of its own; a panel that fails to load is left out and said so, the rest of the page works on.
  async function loadPanels() {
    let names = [];
    try {
      const response = await fetch('status/assets/panels.json', { cache: 'no-store' });
      if (response.ok) names = await response.json();
    } catch (error) {
      names = [];
    }
    for (const name of names) {
      const section = document.createElement('section');
      section.id = name;
      section.hidden = true;
      byId('panels').append(section);
      const style = document.createElement('link');
      style.rel = 'stylesheet';
      style.href = 'status/assets/panels/' + name + '/panel.css';
      document.head.append(style);
      try {
        const module = await import(new URL('status/assets/panels/' + name + '/panel.js', document.baseURI).href);
        state.panels.set(name, { section, render: module.render });
      } catch (error) {
        stopPanel(name, section, 'did not load: ' + error.message);
      }
      const pending = state.pendingPanels.get(name) || [];
      state.pendingPanels.delete(name);
      for (const data of pending) panel(name, data);
    }
    state.panelsLoaded = true;
    state.pendingPanels.clear();
  }

  // A panel that failed says so in its section and takes no more events; the rest of the page works on.
  function stopPanel(name, section, why) {
    section.hidden = false;
    section.textContent = 'The ' + name + ' panel ' + why;
    state.panels.set(name, { section, render: () => {} });
  }

  // One item of a panel's data in detail (status/api/<name>/<key>), with the page's token; rejects with the reason.
  async function detail(name, key) {
    const response = await fetch('status/api/' + name + '/' + encodeURIComponent(key),
      { headers: authorization(), cache: 'no-store' });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.reason || 'HTTP ' + response.status);
    return body;
  }

  function panel(name, data) {
    const loaded = state.panels.get(name);
    if (!loaded) {
      if (!state.panelsLoaded) {
        if (!state.pendingPanels.has(name)) state.pendingPanels.set(name, []);
        state.pendingPanels.get(name).push(data);
      }
      return;
    }
    try {
      loaded.render(loaded.section, data, { text, cell, milliseconds, detail: (key) => detail(name, key) });
    } catch (error) {
      // What it holds may be half updated: it stops rather than show a view that is not the instance's.
      stopPanel(name, loaded.section, 'stopped (reload the page): ' + error.message);
    }
  }

  // ---- controls -----------------------------------------------------------------------------------------------

  function readFragment() {
    const params = new URLSearchParams(location.hash.slice(1));
    state.prefix = params.get('prefix') || '';
    state.verdicts = new Set((params.get('verdict') || '').split(',').filter(Boolean));
    state.offset = Math.max(0, parseInt(params.get('offset') || '0', 10) || 0);
    const limit = parseInt(params.get('limit') || '100', 10);
    state.limit = [50, 100, 250, 500].includes(limit) ? limit : 100;
    byId('prefix').value = state.prefix;
    byId('limit').value = String(state.limit);
    for (const button of document.querySelectorAll('.count')) {
      button.setAttribute('aria-pressed', String(state.verdicts.has(button.dataset.verdict)));
    }
  }

  function changed() {
    history.replaceState(null, '', '#' + query());
    connect();
  }

  function controls() {
    let typing = 0;
    byId('prefix').addEventListener('input', (event) => {
      clearTimeout(typing);
      typing = setTimeout(() => {
        state.prefix = event.target.value.trim();
        state.offset = 0;
        changed();
      }, 250);
    });
    byId('limit').addEventListener('change', (event) => {
      state.limit = parseInt(event.target.value, 10);
      state.offset = Math.floor(state.offset / state.limit) * state.limit;
      changed();
    });
    byId('prev').addEventListener('click', () => {
      state.offset = Math.max(0, state.offset - state.limit);
      changed();
    });
    byId('next').addEventListener('click', () => {
      state.offset += state.limit;
      changed();
    });
    for (const button of document.querySelectorAll('.count')) {
      button.addEventListener('click', () => {
        const verdict = button.dataset.verdict;
        if (state.verdicts.has(verdict)) state.verdicts.delete(verdict);
        else state.verdicts.add(verdict);
        button.setAttribute('aria-pressed', String(state.verdicts.has(verdict)));
        state.offset = 0;
        changed();
      });
    }
    byId('token-form').addEventListener('submit', (event) => {
      event.preventDefault();
      state.token = byId('token-input').value.trim();
      sessionStorage.setItem(TOKEN_KEY, state.token);
      byId('token-input').value = '';
      connect();
    });
    byId('forget').addEventListener('click', () => {
      state.token = null;
      sessionStorage.removeItem(TOKEN_KEY);
      connect();
    });
    window.addEventListener('hashchange', () => {
      readFragment();
      connect();
    });
    setInterval(() => {
      for (const when of document.querySelectorAll('td.ago')) {
        when.querySelector('.when').textContent = since(Number(when.dataset.changed));
      }
    }, 1000);
  }

  readFragment();
  controls();
  loadPanels();
  connect();
})();
