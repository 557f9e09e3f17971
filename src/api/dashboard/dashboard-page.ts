// The sandbox's live page (docs/api.md#the-dashboard): a firm's accounts, each with its equity against the max-loss
// and daily-loss floors, its locks and its fills, moving as the firm stream reports them. One static page: the key
// typed in stays in the browser, the REST reads send it as X-Service-Api-Key, and the stream is opened with a
// one-time ticket (a browser cannot set headers on a WebSocket). echarts draws the lines (served beside the page).
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>propsim sandbox: live accounts</title>
<link rel="icon" href="data:,">
<style>
  body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1b1f23; }
  header { display: flex; align-items: baseline; gap: 1.5rem; flex-wrap: wrap; }
  h1 { margin: 0 0 .75rem; }
  #clock { font-variant-numeric: tabular-nums; color: #1b1f23; }
  form { display: flex; gap: .5rem; align-items: center; margin-bottom: 1rem; flex-wrap: wrap; }
  /* A tall enough line that the key's underscores show (Debian's monospace fonts draw them below the baseline). */
  input { width: 24rem; font: 15px/1.6 "DejaVu Sans Mono", "Liberation Mono", ui-monospace, monospace;
    padding: .3rem .5rem; box-sizing: border-box; height: 2.4rem; }
  button { font-size: 15px; height: 2.4rem; padding: 0 1rem; }
  #status { color: #57606a; }
  .account { border: 1px solid #d0d7de; border-radius: 6px; padding: .75rem; margin-bottom: 1rem; }
  .account h2 { font-size: 1.05rem; margin: 0; }
  .account h2.locked { color: #c62828; }
  .account .id { color: #8c959f; font: 12px ui-monospace, monospace; margin: .1rem 0 .35rem; }
  .figures { color: #57606a; font-size: .9rem; font-variant-numeric: tabular-nums; }
  .chart { width: 100%; height: 260px; }
</style>
</head>
<body>
<header><h1>Live accounts</h1><span id="clock">simulated clock: not read yet</span></header>
<form id="connect-form">
  <label for="key">Firm key</label>
  <input id="key" name="key" autocomplete="off" spellcheck="false" placeholder="svc_live_acme_operator_demo" required>
  <button id="connect" type="submit">Connect</button>
  <span id="status">not connected</span>
</form>
<div id="accounts"></div>
<script src="/dashboard/echarts.min.js"></script>
<script>
'use strict';
// What the page shows, and the last stream event it has taken (the sequence it resumes from after a drop).
const state = { connected: false, accounts: {}, sequence: 0, nowMs: 0, more: false, reconnects: 0 };
window.dashboard = state;
const PAGE = 100; // a hundred charts is as many as a page can keep moving
let headers = {};
let socket;
let generation = 0; // a new Connect ends what the last one started

// Times in Chicago, as the exchange and the rest of propsim give them, whatever the browser's own zone.
const CT_TIME = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const ctParts = (ms) => Object.fromEntries(CT_TIME.formatToParts(ms).map((p) => [p.type, p.value]));
const ctLabel = (ms) => { const p = ctParts(ms); return p.month + '-' + p.day + ' ' + p.hour + ':' + p.minute; };
const ctTooltip = (points) => {
  const t = ctParts(points[0].value[0]);
  const rows = points.map((p) => p.marker + p.seriesName + ' ' + (p.value[1] === null ? '' : p.value[1].toFixed(2)));
  return [t.hour + ':' + t.minute + ':' + t.second + ' CT', ...rows].join('<br>');
};
const money = (text) => (text === undefined || text === null ? null : Number(text));
const status = (text) => { document.getElementById('status').textContent = text; };

/** The simulated clock, as far as the page has seen it (reads, events): it never goes back. */
function seeClock(ms) {
  if (!(ms > state.nowMs)) return;
  state.nowMs = ms;
  const p = ctParts(ms);
  document.getElementById('clock').textContent = 'simulated clock: ' + p.weekday + ' ' + p.year + '-' + p.month + '-' + p.day + ' ' + p.hour + ':' + p.minute + ':' + p.second + ' CT';
}

async function api(method, path) {
  const response = await fetch(path, { method, headers });
  const body = await response.json();
  if (!response.ok) throw Object.assign(new Error(method + ' ' + path + ': ' + response.status + ' ' + (body.error || '')), { code: body.code });
  return body;
}

/** The risk state; while the risk engine still loads a new account (503 risk_loading), its balance alone. */
async function riskState(accountId) {
  try {
    return (await api('GET', '/v1/firm-control/accounts/' + accountId + '/risk-state')).item;
  } catch (error) {
    if (error.code !== 'risk_loading') throw error;
    const balance = await api('GET', '/v1/balances/' + accountId);
    return { ...balance, max_loss_limit_trigger: null, is_locked: false, loading: true };
  }
}

/** An account's card from its history: who trades it on which plan, its line so far, its fills and locks. */
function addAccount(history, sequence) {
  const id = history.account_id;
  const card = document.createElement('section');
  card.className = 'account';
  card.dataset.account = id;
  const title = document.createElement('h2');
  const idLine = document.createElement('div');
  idLine.className = 'id';
  idLine.textContent = 'account ' + id;
  const figures = document.createElement('div');
  figures.className = 'figures';
  const chart = document.createElement('div');
  chart.className = 'chart';
  card.append(title, idLine, figures, chart);
  document.getElementById('accounts').append(card);
  const trader = history.trader_first_name ? history.trader_first_name + ' (' + history.trader_email + ')' : history.trader_email;
  const account = state.accounts[id] = {
    name: trader + ' · ' + history.plan_reference,
    sequence,
    points: history.points.map((p) => [p.at, money(p.equity), money(p.max_loss_limit_trigger), money(p.daily_loss_limit_trigger)]),
    fills: history.fills.slice(),
    fillCount: history.fill_count,
    locks: history.locks.map((l) => [l.at, l.lock + ' ' + l.change]),
    locked: history.is_locked, lockout: history.lockout_reason, loading: false,
    title, figures,
    chart: echarts.init(chart, null, { renderer: 'svg' }),
    sampling: undefined, again: false,
  };
  show(account);
}

/** Title and figures from the account's last point. */
function show(account) {
  const last = account.points[account.points.length - 1] || [0, null, null, null];
  account.title.textContent = account.name + (account.locked ? ' (locked: ' + (account.lockout || 'locked') + ')' : '');
  account.title.className = account.locked ? 'locked' : '';
  const figure = (value) => (value === null ? '' : value.toFixed(2));
  account.figures.textContent = 'equity ' + figure(last[1]) +
    (account.loading ? ' · the risk engine is loading the account' : ' · max-loss floor ' + figure(last[2])) +
    (last[3] !== null ? ' · daily-loss floor ' + figure(last[3]) : '') +
    ' · fills ' + account.fillCount;
  draw(account);
}

/**
 * Samples the account after an event. A read gives the state as it is now, not as the event left it, so the reads
 * of one account go one at a time (one that finished first would put a newer state before an older one), and events
 * that come while one is on its way are answered by a single read after it.
 */
function queueSample(accountId) {
  const account = state.accounts[accountId];
  if (account.sampling) { account.again = true; return account.sampling; }
  account.sampling = (async () => {
    try {
      do { account.again = false; await sample(accountId); } while (account.again);
    } finally {
      account.sampling = undefined;
    }
  })().catch((error) => status(String(error)));
  return account.sampling;
}

/** The account's state, drawn at the simulated time it was read (the clock before the read: the state is that new). */
async function sample(accountId) {
  const account = state.accounts[accountId];
  const { now_ms } = await api('GET', '/health');
  seeClock(now_ms);
  const item = await riskState(accountId);
  const last = account.points[account.points.length - 1];
  const point = [Math.max(now_ms, last ? last[0] : now_ms), money(item.equity), money(item.max_loss_limit_trigger), money(item.daily_loss_limit_trigger)];
  if (point[2] === null && last) point[2] = last[2]; // still loading: the floor the history gave
  account.points.push(point);
  account.locked = item.is_locked;
  account.lockout = item.lockout_reason;
  account.loading = Boolean(item.loading);
  show(account);
}

/** The equity line's value at timeMs (the last sample at or before it): a fill's marker sits on the line. */
function equityAt(account, timeMs) {
  let value = account.points.length > 0 ? account.points[0][1] : null;
  for (const point of account.points) if (point[0] <= timeMs) value = point[1];
  return value;
}

function draw(account) {
  // Each line holds its last value up to the right edge, a little after the clock: a floor's move at a roll then
  // shows as a step to its new level, not as an edge.
  const first = account.points.length > 0 ? account.points[0][0] : state.nowMs;
  const lastPoint = account.points[account.points.length - 1];
  const end = Math.max(state.nowMs, lastPoint ? lastPoint[0] : state.nowMs);
  const edge = end + Math.max(60000, (end - first) * 0.04);
  const held = lastPoint ? [...account.points, [edge, ...lastPoint.slice(1)]] : [];
  const line = (name, index, color, type) => ({
    name, type: 'line', step: 'end', showSymbol: false, lineStyle: { color, type }, itemStyle: { color },
    data: held.filter((p) => p[index] !== null).map((p) => [p[0], p[index]]),
  });
  const equity = line('equity', 1, '#1565c0', 'solid');
  equity.markLine = {
    symbol: 'none', silent: true, lineStyle: { color: '#c62828', type: 'solid' },
    label: { formatter: (d) => d.name, color: '#c62828', position: 'insideEndTop' },
    data: account.locks.map(([at, what]) => ({ xAxis: at, name: what })),
  };
  account.chart.setOption({
    animation: false,
    legend: { top: 0 },
    grid: { left: 70, right: 20, top: 30, bottom: 30 },
    tooltip: { trigger: 'axis', formatter: ctTooltip },
        xAxis: { type: 'time', name: 'CT', max: edge, axisLabel: { formatter: ctLabel, hideOverlap: true } },
    yAxis: { type: 'value', scale: true, name: 'USD' },
    series: [
      equity,
      line('max-loss floor', 2, '#c62828', 'dashed'),
      line('daily-loss floor', 3, '#ef6c00', 'dotted'),
      { name: 'fills', type: 'scatter', symbolSize: 8, itemStyle: { color: '#2e7d32' }, data: account.fills.map((t) => [t, equityAt(account, t)]) },
    ],
  });
}

/**
 * The account's history, fetched when the stream names an account the page does not show yet (a new one). Its events
 * that come meanwhile wait, and those after the history's sequence are taken once it is in.
 */
const fetching = {};
async function addLater(accountId, event) {
  if (fetching[accountId]) { fetching[accountId].push(event); return; }
  if (Object.keys(state.accounts).length >= PAGE) { state.more = true; liveStatus(); return; }
  fetching[accountId] = [event];
  try {
    const { sequence, now_ms, items } = await api('GET', '/v1/firm-control/account-histories?account_id=' + encodeURIComponent(accountId));
    seeClock(now_ms);
    if (items[0] && !state.accounts[accountId]) {
      addAccount(items[0], sequence);
      for (const waiting of fetching[accountId]) take(state.accounts[accountId], waiting);
    }
    liveStatus();
  } finally {
    delete fetching[accountId];
  }
}

function liveStatus() {
  const count = Object.keys(state.accounts).length;
  status('live: ' + (state.more ? 'the first ' + count + " of the firm's accounts (it has more)" : count === 1 ? '1 account' : count + ' accounts'));
}

function onEvent(event) {
  if (event.sequence <= state.sequence) return; // seen already (a resumed stream may send the last one again)
  state.sequence = event.sequence;
  seeClock(event.occurred_at);
  const accountId = event.data && event.data.account_id;
  if (!accountId) return;
  const account = state.accounts[accountId];
  if (!account) { addLater(accountId, event).catch((error) => status(String(error))); return; }
  take(account, event);
}

/** An event of a shown account: its fill or lock change is marked, and its figures are read again. */
function take(account, event) {
  if (event.sequence <= account.sequence) return; // its history includes it
  if (event.type === 'fills.created') { account.fills.push(event.occurred_at); account.fillCount++; }
  if (event.type === 'account.locked' || event.type === 'account.unlocked')
    account.locks.push([event.occurred_at, event.data.lock + (event.type === 'account.locked' ? ' added' : ' removed')]);
  queueSample(event.data.account_id);
}

/** Loads every account's history, then follows the stream from the sequence the histories include. */
async function connect(key) {
  const mine = ++generation;
  headers = { 'X-Service-Api-Key': key };
  if (socket) socket.close(1000, 'reconnecting');
  status('connecting…');
  const { sequence, now_ms, items, next_cursor } = await api('GET', '/v1/firm-control/account-histories?limit=' + PAGE);
  if (mine !== generation) return;
  for (const account of Object.values(state.accounts)) account.chart.dispose();
  document.getElementById('accounts').replaceChildren();
  Object.assign(state, { accounts: {}, sequence, more: Boolean(next_cursor) });
  seeClock(now_ms);
  for (const item of items) addAccount(item, sequence);
  await follow(mine);
}

/** Opens the firm stream with a one-time ticket and subscribes from state.sequence; reopens it when it drops. */
async function follow(mine) {
  const { ticket } = await api('POST', '/v1/firm-ws/tickets');
  if (mine !== generation) return;
  const ws = socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/v1/firm-ws?ticket=' + encodeURIComponent(ticket));
  ws.onopen = () => ws.send(JSON.stringify({ op: 'subscribe', since_sequence: state.sequence }));
  ws.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.type === 'subscribed') { state.connected = true; liveStatus(); return; }
    // Too far behind to resume: start again from the histories.
    if (event.type === 'error' && event.code === 'sequence_expired') { connect(headers['X-Service-Api-Key']).catch((e) => status(String(e))); return; }
    if (event.type === 'error') { status('stream: ' + event.error); return; }
    onEvent(event);
  };
  ws.onclose = (event) => {
    if (mine !== generation || socket !== ws) return;
    state.connected = false;
    state.reconnects++;
    const wait = Math.min(10, 2 ** Math.min(state.reconnects, 4) / 2);
    status('disconnected (' + event.code + (event.reason ? ' ' + event.reason : '') + '); reconnecting in ' + wait + ' s from event ' + state.sequence);
    setTimeout(() => { if (mine === generation) follow(mine).catch(retryLater(mine)); }, wait * 1000);
  };
}

/** A failed reconnect (the server is still down) tries again a little later. */
function retryLater(mine) {
  return (error) => {
    status('reconnecting: ' + String(error));
    setTimeout(() => { if (mine === generation) follow(mine).catch(retryLater(mine)); }, 3000);
  };
}

// The clock moves without events too (an advance with nothing to report): read it now and then while connected.
setInterval(() => {
  if (state.connected) api('GET', '/health').then(({ now_ms }) => seeClock(now_ms), () => undefined);
}, 2000);

document.getElementById('connect-form').addEventListener('submit', (event) => {
  event.preventDefault();
  connect(document.getElementById('key').value.trim()).catch((error) => status(String(error)));
});
</script>
</body>
</html>
`;
