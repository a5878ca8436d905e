(() => {
  const activityId = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] || '');
  const $ = id => document.getElementById(id);
  const buyer = $('buyer'), buy = $('buy'), pay = $('pay'), outcome = $('outcome');
  let sale = null, reservationId = null, following = null, providerPays = false;
  buyer.value = sessionStorage.getItem('flashsale.buyer') || '';

  const show = (state, text) => { outcome.dataset.state = state; outcome.textContent = text; };
  // Demo mode signs the buyer in with a short-lived token of its own issuer (POST /demo/tokens); elsewhere that path
  // is a 404 and the buyer comes from the gateway (X-User-Id, or the token it forwards).
  let token = null;
  async function signIn() {
    const name = buyer.value.trim(), held = JSON.parse(sessionStorage.getItem('flashsale.token') || 'null');
    if (held && held.buyer === name && Date.parse(held.expiresAt) - Date.now() > 30000) { token = held.token; return; }
    token = null;
    sessionStorage.removeItem('flashsale.token');
    const answer = await fetch('/demo/tokens', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({buyer: name})}).catch(() => null);
    if (answer && answer.ok) {
      const issued = await answer.json();
      token = issued.token;
      sessionStorage.setItem('flashsale.token', JSON.stringify({buyer: name, token, expiresAt: issued.expiresAt}));
    }
  }
  const headers = extra => Object.assign({'X-User-Id': buyer.value.trim()},
      token ? {'Authorization': 'Bearer ' + token} : {}, extra || {});

  // The sale as last read and its tag: each poll sends the tag, and a 304 means nothing changed since.
  let saleTag = null;

  // Every server value goes in as text (DOM nodes and textContent), never parsed as HTML.
  const cell = (text, testId) => {
    const td = document.createElement('td');
    td.textContent = text;
    if (testId) { td.dataset.testid = testId; }
    return td;
  };
  const itemRow = item => {
    const row = document.createElement('tr');
    row.append(cell(item.skuId), cell(item.available === null || item.available === undefined ? 'opens soon'
        : String(item.available), 'available-' + item.skuId), cell(String(item.perUserLimit)));
    return row;
  };

  async function loadSale() {
    const answer = await fetch('/api/v1/activities/' + encodeURIComponent(activityId),
        {cache: 'no-store', headers: saleTag ? {'If-None-Match': saleTag} : {}});
    if (answer.status === 304) {
      $('name').dataset.unchangedPolls = (+$('name').dataset.unchangedPolls || 0) + 1;   // counted for the browser tests
      return;
    }
    if (answer.status === 404) { saleTag = null; $('name').textContent = 'No such sale'; return; }
    if (!answer.ok) { return; }
    saleTag = answer.headers.get('ETag');
    sale = await answer.json();
    $('name').textContent = sale.name;
    document.title = sale.name + ' - Flashsale';
    $('items').replaceChildren(...sale.items.map(itemRow));
    const sku = $('sku');
    if (sku.options.length !== sale.items.length) {
      sku.replaceChildren(...sale.items.map(item => new Option(item.skuId, item.skuId)));
    }
    tick();
    if (!reservationId && outcome.dataset.state === 'NONE') { buy.disabled = false; }
  }

  function tick() {
    if (!sale) { return; }
    const now = Date.now(), starts = Date.parse(sale.startsAt), ends = Date.parse(sale.endsAt);
    const left = Math.max(0, Math.round((starts - now) / 1000));
    $('countdown').textContent = now < starts
        ? 'Starts in ' + Math.floor(left / 3600) + 'h ' + Math.floor(left % 3600 / 60) + 'm ' + left % 60 + 's'
        : now < ends ? 'On sale now' : 'The sale has ended';
    $('countdown').dataset.phase = now < starts ? 'NOT_STARTED' : now < ends ? 'OPEN' : 'ENDED';
  }

  const refusals = {
    SOLD_OUT: 'Sold out', INSUFFICIENT_STOCK: 'Not enough left', LIMIT_EXCEEDED: 'Over the limit for one buyer',
    NOT_STARTED: 'The sale has not started yet', ENDED: 'The sale has ended', NOT_READY: 'Opening in a moment: try again',
    SALE_PAUSED: 'The sale is paused for a moment: try again',
    MISSING_USER: 'Sign in first (letters, digits, - and _)', UNKNOWN_SKU: 'No such product',
    TOKEN_MISSING: 'Sign in first (letters, digits, - and _)', TOKEN_EXPIRED: 'Signed out: try again',
    TOKEN_INVALID: 'Sign in again'
  };
  const signInAgain = ['MISSING_USER', 'TOKEN_MISSING', 'TOKEN_EXPIRED', 'TOKEN_INVALID'];

  buy.addEventListener('click', async () => {
    if (buy.disabled) { return; }
    buy.disabled = true;                       // the first click wins; a second one never sends
    sessionStorage.setItem('flashsale.buyer', buyer.value.trim());
    await signIn();
    const key = crypto.randomUUID();          // one Idempotency-Key per attempt: a resend is the same attempt
    show('SENDING', 'Reserving...');
    let answer;
    try {
      answer = await fetch('/api/v1/activities/' + encodeURIComponent(activityId) + '/reservations', {
        method: 'POST', headers: headers({'Content-Type': 'application/json', 'Idempotency-Key': key}),
        body: JSON.stringify({items: [{skuId: $('sku').value, quantity: 1}]})
      });
    } catch (e) { show('ERROR', 'No answer: try again'); buy.disabled = false; return; }
    const body = await answer.json().catch(() => ({}));
    if (answer.status === 202) {
      reservationId = body.reservationId;
      show('RESERVED', 'Reserved: your order is being created');
      follow();
      return;
    }
    const code = body.code || ('HTTP_' + answer.status);
    show(code, refusals[code] || body.detail || 'Refused (' + code + ')');
    if (code === 'NOT_READY' || code === 'NOT_STARTED' || code === 'SALE_PAUSED' || signInAgain.includes(code)) {
      buy.disabled = false;
    }
  });

  async function follow() {
    clearTimeout(following);
    const answer = await fetch('/api/v1/reservations/' + encodeURIComponent(reservationId), {headers: headers()});
    if (answer.ok) {
      const reservation = await answer.json();
      const texts = {
        RESERVED: 'Reserved: your order is being created',
        ORDERED: providerPays ? 'Ordered: waiting for the payment provider' : 'Ordered: pay to complete',
        PAID: 'Paid. Thank you!', CANCELLED: 'Cancelled', EXPIRED: 'Expired: not paid in time',
        FAILED: 'Could not be ordered' + (reservation.failureReason ? ' (' + reservation.failureReason + ')' : '')
      };
      show(reservation.status, texts[reservation.status] || reservation.status);
      pay.hidden = providerPays || reservation.status !== 'ORDERED';
      if (reservation.status === 'PAID' || reservation.status === 'CANCELLED' || reservation.status === 'EXPIRED'
          || reservation.status === 'FAILED') { return; }
    }
    following = setTimeout(follow, 500);
  }

  pay.addEventListener('click', async () => {
    pay.disabled = true;
    const answer = await fetch('/api/v1/reservations/' + encodeURIComponent(reservationId) + '/payment',
        {method: 'POST', headers: headers()});
    pay.disabled = false;
    if (answer.ok) { pay.hidden = true; }
    // 403: only the payment provider confirms payments here; the page waits for its word.
    if (answer.status === 403) { providerPays = true; pay.hidden = true; }
    follow();
  });

  loadSale();
  setInterval(loadSale, 1000);
  setInterval(tick, 250);
})();
