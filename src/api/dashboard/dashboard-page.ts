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
  form { display: flex; gap: .5rem; align-items: center; margin-bottom: 1rem; }
  input { width: 22rem; padding: .3rem; font-family: ui-monospace, monospace; }
  #status { color: #57606a; }
  .account { border: 1px solid #d0d7de; border-radius: 6px; padding: .75rem; margin-bottom: 1rem; }
  .account h2 { font-size: 1rem; margin: 0 0 .25rem; }
  .figures { color: #57606a; font-size: .9rem; }
  .locked { color: #c62828; font-weight: 600; }
  .chart { width: 100%; height: 260px; }
</style>
</head>
<body>
<h1>Live accounts</h1>
<form id="connect-form">
  <label for="key">Firm key</label>
  <input id="key" name="key" autocomplete="off" placeholder="svc_live_acme_operator_demo" required>
  <button id="connect" type="submit">Connect</button>
  <span id="status">not connected</span>
</form>
<div id="accounts"></div>
<script src="/dashboard/echarts.min.js"></script>
<script>
'use strict';
const state = { connected: false, accounts: {} };
window.dashboard = state;
let headers = {};

// Times in Chicago, as the exchange and the rest of propsim give them, whatever the browser's own zone.
const CT_TIME = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const ctParts = (ms) => Object.fromEntries(CT_TIME.formatToParts(ms).map((p) => [p.type, p.value]));
const ctLabel = (ms) => { const p = ctParts(ms); return p.month + '-' + p.day + ' ' + p.hour + ':' + p.minute; };
const ctTooltip = (points) => {
  const t = ctParts(points[0].value[0]);
  const rows = points.map((p) => p.marker + p.seriesName + ' ' + (p.value[1] === null ? '' : p.value[1].toFixed(2)));
  return [t.hour + ':' + t.minute + ':' + t.second + ' CT', ...rows].join('<br>');
};
const money = (text) => (text === undefined || text === null ? null : Number(text));
const status = (text) => { document.getElementById('status').textContent = text; };

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

function addAccount(item) {
  const card = document.createElement('section');
  card.className = 'account';
  card.dataset.account = item.account_id;
  const title = document.createElement('h2');
  title.textContent = item.account_id;
  const figures = document.createElement('div');
  figures.className = 'figures';
  const chart = document.createElement('div');
  chart.className = 'chart';
  card.append(title, figures, chart);
  document.getElementById('accounts').append(card);
  state.accounts[item.account_id] = {
    points: [], fills: [], locked: false, figures, title,
    chart: echarts.init(chart, null, { renderer: 'svg' }),
    sampling: undefined, again: false,
  };
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
  const item = await riskState(accountId);
  const last = account.points[account.points.length - 1];
  const point = [Math.max(now_ms, last ? last[0] : now_ms), money(item.equity), money(item.max_loss_limit_trigger), money(item.daily_loss_limit_trigger)];
  account.points.push(point);
  account.locked = item.is_locked;
  account.title.textContent = accountId + (item.is_locked ? ' (locked: ' + (item.lockout_reason || 'locked') + ')' : '');
  account.title.className = item.is_locked ? 'locked' : '';
  account.figures.textContent = 'equity ' + item.equity +
    (item.loading ? ' · the risk engine is loading the account' : ' · max-loss floor ' + item.max_loss_limit_trigger) +
    (item.daily_loss_limit_trigger ? ' · daily-loss floor ' + item.daily_loss_limit_trigger : '') +
    ' · fills ' + account.fills.length;
  draw(account);
}

/** The equity line's value at timeMs (the last sample at or before it): a fill's marker sits on the line. */
function equityAt(account, timeMs) {
  let value = account.points.length > 0 ? account.points[0][1] : null;
  for (const point of account.points) if (point[0] <= timeMs) value = point[1];
  return value;
}

function draw(account) {
  const line = (name, index, color, type) => ({
    name, type: 'line', step: 'end', showSymbol: false, lineStyle: { color, type }, itemStyle: { color },
    data: account.points.filter((p) => p[index] !== null).map((p) => [p[0], p[index]]),
  });
  account.chart.setOption({
    animation: false,
    legend: { top: 0 },
    grid: { left: 70, right: 20, top: 30, bottom: 30 },
    tooltip: { trigger: 'axis', formatter: ctTooltip },
    xAxis: { type: 'time', name: 'CT', axisLabel: { formatter: ctLabel, hideOverlap: true } },
    yAxis: { type: 'value', scale: true, name: 'USD' },
    series: [
      line('equity', 1, '#1565c0', 'solid'),
      line('max-loss floor', 2, '#c62828', 'dashed'),
      line('daily-loss floor', 3, '#ef6c00', 'dotted'),
      { name: 'fills', type: 'scatter', symbolSize: 8, itemStyle: { color: '#2e7d32' }, data: account.fills.map((t) => [t, equityAt(account, t)]) },
    ],
  });
}

async function connect(key) {
  headers = { 'X-Service-Api-Key': key };
  status('connecting…');
  // One page of accounts: a hundred charts is as many as a page can keep moving.
  const { items, next_cursor } = await api('GET', '/v1/firm-control/accounts?limit=100');
  const shown = next_cursor ? 'the first ' + items.length + " of the firm's accounts (it has more)" : items.length === 1 ? '1 account' : items.length + ' accounts';
  document.getElementById('accounts').replaceChildren();
  state.accounts = {};
  for (const item of items) addAccount(item);
  await Promise.all(items.map((item) => queueSample(item.account_id)));
  const { ticket } = await api('POST', '/v1/firm-ws/tickets');
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/v1/firm-ws?ticket=' + encodeURIComponent(ticket));
  ws.onopen = () => ws.send(JSON.stringify({ op: 'subscribe' }));
  ws.onclose = (event) => { state.connected = false; status('disconnected (' + event.code + ' ' + event.reason + ')'); };
  ws.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.type === 'subscribed') { state.connected = true; status('live: ' + shown); return; }
    const accountId = event.data && event.data.account_id;
    const account = accountId && state.accounts[accountId];
    if (!account) return;
    if (event.type === 'fills.created') account.fills.push(event.occurred_at);
    queueSample(accountId);
  };
}

document.getElementById('connect-form').addEventListener('submit', (event) => {
  event.preventDefault();
  connect(document.getElementById('key').value.trim()).catch((error) => status(String(error)));
});
</script>
</body>
</html>
`;
