(() => {
  const $ = id => document.getElementById(id);
  const text = value => String(value === null || value === undefined ? '' : value)
      .replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  $('token').value = sessionStorage.getItem('flashsale.token') || '';
  $('sales').value = sessionStorage.getItem('flashsale.sales') || '';
  // Typed ids win; otherwise every open sale of the list is watched (at most ten, each costs a request a second).
  let listedOpen = [];
  let listedIds = [];
  const typed = () => $('sales').value.split(',').map(s => s.trim()).filter(Boolean);
  const sales = () => typed().length ? typed() : listedOpen.slice(0, 10);
  const admin = extra => Object.assign({'Authorization': 'Bearer ' + $('token').value}, extra || {});
  let last = null;
  let refreshes = 0;

  $('save').addEventListener('click', () => {
    sessionStorage.setItem('flashsale.token', $('token').value);
    sessionStorage.setItem('flashsale.sales', $('sales').value);
    refreshes = 0;
    refresh();
  });

  function fillSaleChoices() {
    const options = sales().map(id => '<option>' + text(id) + '</option>').join('');
    fillChoices([$('reconcile-sale'), $('adjust-sale')], sales(), options);
    // The window of any sale not archived may move (a sale not started yet too), not only the watched ones.
    fillChoices([$('window-sale')], listedIds, listedIds.map(id => '<option>' + text(id) + '</option>').join(''));
  }

  function fillChoices(selects, ids, options) {
    for (const select of selects) {
      if (select.dataset.options !== options) {
        const chosen = select.value;
        select.innerHTML = options;
        select.dataset.options = options;
        if (ids.includes(chosen)) { select.value = chosen; }
      }
    }
  }

  async function listSales() {
    const listed = await json('/api/v1/activities', {headers: admin()}).catch(() => null);
    const all = listed ? listed.activities : [];
    listedOpen = all.filter(sale => sale.phase === 'OPEN').map(sale => sale.id);
    listedIds = all.map(sale => sale.id);
    $('sale-list').innerHTML = all.map(sale => '<tr data-testid="sale-' + text(sale.id) + '" data-phase="'
        + text(sale.phase) + '" data-paused="' + text(sale.paused) + '"><td>' + text(sale.id) + '</td><td>'
        + text(sale.name) + '</td><td>' + text(sale.phase) + '</td><td>' + text(sale.startsAt) + '</td><td>'
        + text(sale.endsAt) + '</td><td>' + text(sale.skuIds.join(', ')) + '</td><td>'
        + (sale.paused ? 'paused' : '') + '</td><td>' + controlButton(sale) + '</td></tr>').join('')
        || '<tr><td colspan="8">no sale</td></tr>';
  }

  // Pause or resume (ADR 79): the button says what a click does next.
  function controlButton(sale) {
    const action = sale.paused ? 'resume' : 'pause';
    return '<button data-control="' + action + '" data-sale="' + text(sale.id) + '" data-testid="' + action + '-'
        + text(sale.id) + '">' + (sale.paused ? 'Resume' : 'Pause') + '</button>';
  }

  async function json(path, options) {
    const answer = await fetch(path, options);
    if (answer.status === 401) { $('status').textContent = 'The admin token was refused'; throw new Error('401'); }
    return answer.ok ? answer.json() : null;
  }


  async function refresh() {
    if (!$('token').value) { return; }
    $('status').textContent = '';
    // The list reads the shop's database: every fifth refresh is enough for phases that change by the minute.
    if (refreshes++ % 5 === 0) { await listSales(); }
    fillSaleChoices();
    const rows = [];
    for (const id of sales()) {
      const stock = await json('/api/v1/activities/' + encodeURIComponent(id) + '/stock', {headers: admin()})
          .catch(() => null);
      if (!stock) { rows.push('<tr><td>' + text(id) + '</td><td colspan="4">not loaded</td></tr>'); continue; }
      for (const item of stock.items) {
        rows.push('<tr data-testid="ledger-' + text(id) + '-' + text(item.skuId) + '" data-total="' + item.total
            + '" data-available="' + item.available + '" data-reserved="' + item.reserved + '" data-sold="'
            + item.sold + '"><td>' + text(id) + ' / ' + text(item.skuId) + '</td><td>' + item.total + '</td><td>'
            + item.available + '</td><td>' + item.reserved + '</td><td>' + item.sold + '</td></tr>');
      }
    }
    $('ledgers').innerHTML = rows.join('');
    const reports = [];
    for (const id of sales()) {
      const kept = await json('/api/v1/activities/' + encodeURIComponent(id) + '/reconciliation?max=10',
          {headers: admin()}).catch(() => null);
      (kept ? kept.reports : []).forEach(report => reports.push(Object.assign({activityId: id}, report)));
    }
    $('reports').innerHTML = reports.map(row).join('') || '<tr><td colspan="5">no drift reported</td></tr>';
    const reviews = [];
    for (const id of sales()) {
      const open = await json('/api/v1/activities/' + encodeURIComponent(id) + '/reconciliation/reviews',
          {headers: admin()}).catch(() => null);
      (open ? open.reports : []).forEach(report => reviews.push(Object.assign({activityId: id}, report)));
    }
    $('reviews').innerHTML = reviews.map(reviewRow).join('') || '<tr><td colspan="5">none</td></tr>';
    const dead = await json('/api/v1/admin/dead-letters?limit=20', {headers: admin()}).catch(() => null);
    const letters = dead ? dead.deadLetters : [];
    $('dead-letters').innerHTML = letters.map(letter => '<tr><td>' + text(letter.id) + '</td><td>'
        + text(letter.reservationId) + '</td><td>' + text(letter.error) + '</td><td>'
        + '<button data-replay="' + text(letter.id) + '">Replay</button></td></tr>').join('')
        || '<tr><td colspan="4">none</td></tr>';
    const figures = await json('/api/v1/admin/pipeline-figures', {headers: admin()}).catch(() => null) || {};
    const figure = value => value === undefined ? null : value;
    const placed = figure(figures.ordersPlaced);
    const relayed = figure(figures.eventsRelayed);
    const lag = figure(figures.consumerLag);
    const depth = figure(figures.outboxDepth);
    const age = figure(figures.outboxOldestAgeSeconds);
    const now = Date.now();
    if (last && placed !== null) {
      const seconds = (now - last.at) / 1000;
      $('ops').textContent = ((placed - last.placed) / seconds).toFixed(1);
      $('relayed').textContent = relayed === null ? '-' : ((relayed - last.relayed) / seconds).toFixed(1);
    }
    $('lag').textContent = lag === null ? 'not measured' : Math.max(0, lag);
    $('outbox-depth').textContent = depth === null ? 'not measured' : depth;
    $('outbox-age').textContent = age === null ? '-' : age.toFixed(1);
    last = {at: now, placed: placed || 0, relayed: relayed || 0};
  }

  function row(report) {
    const drift = report.drift || {};
    const units = report.driftUnits + ' (' + ['total', 'available', 'reserved', 'sold']
        .map(k => k + ' ' + (drift[k] || 0)).join(', ') + ')';
    const drifted = report.driftUnits !== 0;
    return '<tr data-testid="report-' + text(report.activityId) + '-' + text(report.skuId) + '" data-action="'
        + text(report.action) + '"><td>' + text(report.activityId) + ' / ' + text(report.skuId) + '</td><td>'
        + text(report.runAt) + '</td><td class="' + (drifted ? 'drift' : '') + '">' + units
        + '</td><td>' + text(report.classification) + '</td><td>' + text(report.action) + '</td></tr>';
  }

  // A repair held back for review (ADR 85): approving reconciles the SKU afresh and repairs what is found then.
  function reviewRow(report) {
    return '<tr data-testid="review-' + text(report.activityId) + '-' + text(report.skuId) + '"><td>'
        + text(report.activityId) + ' / ' + text(report.skuId) + '</td><td>' + text(report.runAt) + '</td><td>'
        + report.driftUnits + '</td><td>' + text(report.classification) + '</td><td><button data-approve-sale="'
        + text(report.activityId) + '" data-approve-sku="' + text(report.skuId) + '" data-testid="approve-'
        + text(report.activityId) + '-' + text(report.skuId) + '">Approve repair</button></td></tr>';
  }

  $('reviews').addEventListener('click', async event => {
    const id = event.target.dataset.approveSale;
    const sku = event.target.dataset.approveSku;
    if (!id || !sku) { return; }
    const answer = await fetch('/api/v1/activities/' + encodeURIComponent(id) + '/reconciliation/'
        + encodeURIComponent(sku) + '/approve-repair', {method: 'POST', headers: admin()});
    const body = await answer.json().catch(() => ({}));
    $('approve-result').textContent = answer.ok ? sku + ': ' + body.action : 'Refused: ' + (body.code || answer.status);
    refresh();
  });

  $('reconcile').addEventListener('click', async () => {
    const id = $('reconcile-sale').value;
    if (!id) { return; }
    const result = await json('/api/v1/activities/' + encodeURIComponent(id) + '/reconciliation',
        {method: 'POST', headers: admin()}).catch(() => null);
    if (result) {
      const drifted = result.reports.filter(r => r.classification !== 'NONE');
      result.reports.forEach(r => r.activityId = id);
      $('status').textContent = 'Reconciled ' + id + ': ' + (drifted.length ? drifted.length + ' SKU(s) with drift, '
          + drifted.filter(r => r.action !== 'NONE').length + ' repaired' : 'in sync');
      $('status').dataset.testid = 'reconcile-result';
    }
    refresh();
  });

  const adjustments = id => '/api/v1/activities/' + encodeURIComponent(id) + '/stock-adjustments';

  $('adjust').addEventListener('click', async () => {
    const id = $('adjust-sale').value;
    const answer = await fetch(adjustments(id), {
      method: 'POST', headers: admin({'Content-Type': 'application/json'}),
      body: JSON.stringify({skuId: $('adjust-sku').value, delta: Number($('adjust-delta').value),
        reason: $('adjust-reason').value || 'ops page'})
    });
    const body = await answer.json().catch(() => ({}));
    $('adjust-result').textContent = answer.ok ? 'Proposed #' + body.id + ' by ' + body.proposedBy
        + ', waiting for another operator' : 'Refused: ' + (body.code || answer.status);
    await showProposals();
  });

  // Pending proposals of the chosen sale, each with approve and reject (withdraw, for its proposer).
  async function showProposals() {
    const id = $('adjust-sale').value;
    if (!id) { return; }
    const listed = await json(adjustments(id) + '/proposals?pending=true', {headers: admin()}).catch(() => null);
    $('proposals').innerHTML = (listed ? listed.proposals : []).map(p => '<tr data-testid="proposal-' + text(p.id)
        + '"><td>' + text(p.id) + '</td><td>' + text(p.skuId) + '</td><td>' + text(p.delta) + '</td><td>'
        + text(p.reason) + '</td><td>' + text(p.proposedBy) + '</td><td>' + text(p.expiresAt) + '</td><td>'
        + '<button data-decision="approval" data-proposal="' + text(p.id) + '">Approve</button> '
        + '<button data-decision="rejection" data-proposal="' + text(p.id) + '">Reject</button></td></tr>').join('');
  }

  $('proposals-show').addEventListener('click', showProposals);

  $('proposals').addEventListener('click', async event => {
    const decision = event.target.dataset.decision;
    const proposal = event.target.dataset.proposal;
    if (!decision || !proposal) { return; }
    const answer = await fetch(adjustments($('adjust-sale').value) + '/proposals/' + encodeURIComponent(proposal)
        + '/' + decision, {method: 'POST', headers: admin()});
    const body = await answer.json().catch(() => ({}));
    $('adjust-result').textContent = !answer.ok ? 'Refused: ' + (body.code || answer.status)
        : decision === 'approval' ? 'Approved #' + proposal + ': total now ' + body.applied.adjustment.stockAfter
        : body.status.charAt(0) + body.status.slice(1).toLowerCase() + ' #' + proposal;
    await showProposals();
    refresh();
  });

  $('sale-list').addEventListener('click', async event => {
    const action = event.target.dataset.control;
    const id = event.target.dataset.sale;
    if (!action || !id) { return; }
    const answer = await fetch('/api/v1/activities/' + encodeURIComponent(id) + '/' + action,
        {method: 'POST', headers: admin()});
    const body = await answer.json().catch(() => ({}));
    $('control-result').textContent = answer.ok ? (body.paused ? 'Paused ' : 'Resumed ') + id
        : 'Refused: ' + (body.code || answer.status);
    await listSales();
  });

  $('move-window').addEventListener('click', async () => {
    const id = $('window-sale').value;
    if (!id) { return; }
    // datetime-local is the browser's local time; the API takes instants.
    const instant = input => input.value ? new Date(input.value).toISOString() : undefined;
    const answer = await fetch('/api/v1/activities/' + encodeURIComponent(id), {
      method: 'PATCH', headers: admin({'Content-Type': 'application/json'}),
      body: JSON.stringify({startsAt: instant($('window-starts')), endsAt: instant($('window-ends'))})
    });
    const body = await answer.json().catch(() => ({}));
    $('window-result').textContent = answer.ok ? 'Now ' + body.startsAt + ' to ' + body.endsAt
        : 'Refused: ' + (body.code || answer.status);
    await listSales();
  });

  $('dead-letters').addEventListener('click', async event => {
    const id = event.target.dataset.replay;
    if (!id) { return; }
    await fetch('/api/v1/admin/dead-letters/' + encodeURIComponent(id) + '/replay', {method: 'POST', headers: admin()});
    refresh();
  });

  if ($('token').value) { $('save').click(); }
  setInterval(refresh, 1000);
})();
