/**
 * The console's routes (ARCHITECTURE.md §12) on Hono: pages, their JSON twins under `/api/…`, and the form
 * actions. Access, CSRF, security headers and secret scrubbing are applied here, for every answer.
 */
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { ConsoleDeps } from './types.js';
import { COOKIE, checkCsrf, checkSessionCookie, csrfFor, newSessionCookie, sameSecret } from './auth.js';
import * as data from './data.js';
import * as pages from './pages.js';
import { createRedactor } from '../core/logger.js';
import { oneLine } from '../core/errors.js';
import type { PageContext } from './pages.js';
import { approvalRows, approvalsPage } from './approvals.js';

type Env = { Variables: { nonce: string | null } };

/** The CSRF binding of a Bearer-authenticated client (it has no login cookie). */
const BEARER_NONCE = 'bearer';

const CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const MAX_PAGE = 1_000_000;

function pageOf(c: Context): number {
  const n = Number(c.req.query('page') ?? '1');
  return Number.isInteger(n) && n >= 1 && n <= MAX_PAGE ? n : 1;
}

/** The console as a Hono app; `createConsoleServer` serves it, tests call `app.request`. */
export function createConsoleApp(deps: ConsoleDeps): Hono<Env> {
  const app = new Hono<Env>();
  // The token and every configured secret are cut from every body, whatever a row happens to hold.
  const scrub = createRedactor([...deps.secrets, deps.token]);
  const now = () => (deps.now ?? (() => new Date()))();
  const past = new data.PastDays();

  const page = (c: Context<Env>, body: string, status: 200 | 400 | 401 | 403 | 404 | 500 = 200) => c.html(scrub(body), status);
  const json = (c: Context<Env>, value: unknown, status: 200 | 401 | 403 | 404 = 200) =>
    c.body(scrub(JSON.stringify(value)), status, { 'Content-Type': 'application/json; charset=utf-8' });
  const ctx = (c: Context<Env>, notice?: PageContext['notice']): PageContext => {
    const nonce = c.get('nonce');
    return { csrf: nonce ? csrfFor(deps.token, nonce) : '', notice };
  };

  app.use('*', async (c, next) => {
    await next();
    c.header('Content-Security-Policy', CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer'); // the login link holds the token
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-store');
  });

  app.get('/static/console.css', (c) => c.body(pages.STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8' }));

  app.get('/login', (c) => {
    const given = c.req.query('token');
    if (given === undefined) return page(c, pages.loginPage(false));
    if (!sameSecret(given, deps.token)) return page(c, pages.loginPage(true), 401);
    setCookie(c, COOKIE, newSessionCookie(deps.token), { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 30 * 86_400 });
    return c.redirect('/', 303);
  });

  // Everything else: the login cookie or `Authorization: Bearer <token>`.
  app.use('*', async (c, next) => {
    const nonce = checkSessionCookie(deps.token, getCookie(c, COOKIE));
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('Authorization') ?? '')?.[1]?.trim();
    const byBearer = !nonce && bearer !== undefined && sameSecret(bearer, deps.token);
    if (!nonce && !byBearer) {
      if (c.req.path.startsWith('/api/')) return json(c, { error: 'unauthorized: log in with /login?token=… or send Authorization: Bearer <token>' }, 401);
      return page(c, pages.errorPage(401, 'Log in first: open the login link that switchboard start printed.'), 401);
    }
    // A Bearer client has no login cookie: its CSRF token is bound to the bearer token itself (pages
    // it reads carry it in their forms; `GET /api/csrf` hands it out).
    const session = nonce ?? BEARER_NONCE;
    c.set('nonce', session);
    // Every action needs the CSRF token (form field `csrf` or header `X-CSRF-Token`), whoever sends it.
    if (c.req.method === 'POST') {
      const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const given = body.csrf ?? c.req.header('X-CSRF-Token');
      if (!checkCsrf(deps.token, session, given)) {
        if (c.req.path.startsWith('/api/')) return json(c, { error: 'forbidden: a missing or invalid CSRF token; nothing was changed' }, 403);
        return page(c, pages.errorPage(403, 'This form is out of date or did not come from the console; nothing was changed. Reload the page and try again.'), 403);
      }
    }
    await next();
  });

  app.get('/api/csrf', (c) => json(c, { csrf: ctx(c).csrf }));

  app.get('/', async (c) => page(c, pages.overviewPage(await data.overview(deps, past), ctx(c))));
  app.get('/api/overview', async (c) => json(c, await data.overview(deps, past)));

  app.get('/sessions', async (c) => page(c, pages.sessionsPage(await data.sessions(deps, pageOf(c)), ctx(c))));
  app.get('/api/sessions', async (c) => json(c, await data.sessions(deps, pageOf(c))));
  app.get('/sessions/:id', async (c) => {
    const detail = await data.session(deps, c.req.param('id'), pageOf(c));
    return detail ? page(c, pages.sessionPage(detail, ctx(c))) : page(c, pages.errorPage(404, 'No such session.'), 404);
  });
  app.get('/api/sessions/:id', async (c) => {
    const detail = await data.session(deps, c.req.param('id'), pageOf(c));
    return detail ? json(c, detail) : json(c, { error: 'no such session' }, 404);
  });

  // A thumbnail of a stored image (ARCHITECTURE.md §15), behind the login like every page: the transcript shows
  // the console's own copy, never the platform's URL.
  app.get('/media/:id{[0-9a-f]{64}}/thumbnail', async (c) => {
    const id = c.req.param('id');
    const ref = await deps.store.media.stat(id);
    const bytes = ref?.mime.startsWith('image/') ? await deps.store.media.get(id) : undefined;
    if (!ref || !bytes) return page(c, pages.errorPage(404, 'No such image (it may be past media retention).'), 404);
    const image = deps.thumbnail ? await deps.thumbnail(bytes) : { bytes, mime: ref.mime };
    return c.body(new Uint8Array(image.bytes), 200, { 'Content-Type': image.mime, 'Content-Disposition': 'inline' });
  });

  app.get('/cron', async (c) => page(c, pages.cronPage(await data.cronJobs(deps), ctx(c))));
  app.get('/api/cron', async (c) => json(c, { jobs: await data.cronJobs(deps) }));
  app.post('/cron/:id/:action{run|pause|resume}', async (c) => {
    const id = c.req.param('id');
    const act = c.req.param('action');
    const job = await deps.store.cron.get(id);
    let notice: PageContext['notice'];
    if (!job) notice = { ok: false, text: `No cron job '${id}'.` };
    else if (act === 'run') {
      const result = await deps.cron.runNow(id).catch((error: unknown) => ({ ok: false, detail: oneLine(error) }));
      notice = { ok: result.ok, text: `${id}: ${result.detail}` };
    } else {
      await deps.store.cron.setPaused(id, act === 'pause', now().getTime());
      deps.cron.changed();
      notice = { ok: true, text: `${id} ${act === 'pause' ? 'paused' : 'resumed'}.` };
    }
    return page(c, pages.cronPage(await data.cronJobs(deps), ctx(c, notice)), notice.ok ? 200 : 400);
  });

  app.get('/outbox', async (c) => page(c, pages.outboxPage(await data.outbox(deps, pageOf(c)), ctx(c))));
  app.get('/api/outbox', async (c) => json(c, await data.outbox(deps, pageOf(c))));
  app.post('/outbox/:id{[0-9]+}/retry', async (c) => {
    const id = Number(c.req.param('id'));
    const item = await deps.store.outbox.get(id);
    const ok = item !== undefined && (await deps.store.outbox.retry(id, now().getTime()));
    if (ok) deps.kickDelivery(item.target);
    const notice = ok ? { ok, text: `Reply #${id} is back in line for delivery.` } : { ok, text: `Reply #${id} is not parked (already sent or retried).` };
    return page(c, pages.outboxPage(await data.outbox(deps, 1), ctx(c, notice)), ok ? 200 : 400);
  });

  app.get('/pairing', async (c) => page(c, pages.pairingPage(await data.pairing(deps), ctx(c))));
  app.get('/api/pairing', async (c) => json(c, { pending: await data.pairing(deps) }));
  app.post('/pairing/:code/:action{approve|deny}', async (c) => {
    const code = c.req.param('code');
    let notice: PageContext['notice'];
    if (c.req.param('action') === 'approve') {
      const who = await deps.store.pairing.approve(code, now().getTime());
      notice = who ? { ok: true, text: `Approved ${who.platform} user ${who.userId}.` } : { ok: false, text: `No pending code ${code} (it may have expired).` };
    } else {
      notice = (await deps.store.pairing.deny(code)) ? { ok: true, text: `Denied code ${code}.` } : { ok: false, text: `No pending code ${code}.` };
    }
    return page(c, pages.pairingPage(await data.pairing(deps), ctx(c, notice)), notice.ok ? 200 : 400);
  });

  app.get('/approvals', async (c) => page(c, approvalsPage(await approvalRows(deps), ctx(c), deps.answerApproval !== undefined)));
  app.get('/api/approvals', async (c) => json(c, await approvalRows(deps)));
  app.post('/approvals/:id{[0-9a-f]{6,40}}/:action{approve|deny}', async (c) => {
    const answer = deps.answerApproval;
    let notice: PageContext['notice'];
    if (!answer) notice = { ok: false, text: 'Approvals are answered where the gateway runs (switchboard start).' };
    else {
      const outcome = await answer(c.req.param('id'), c.req.param('action') === 'approve' ? 'approved' : 'denied');
      notice = { ok: outcome.status === 'approved' || outcome.status === 'denied', text: outcome.text };
    }
    return page(c, approvalsPage(await approvalRows(deps), ctx(c, notice), answer !== undefined), notice.ok ? 200 : 400);
  });

  app.notFound((c) => (c.req.path.startsWith('/api/') ? json(c, { error: 'not found' }, 404) : page(c, pages.errorPage(404, 'No such page.'), 404)));
  app.onError((error, c) => {
    const text = scrub(oneLine(error));
    return c.req.path.startsWith('/api/') ? c.json({ error: text }, 500) : page(c, pages.errorPage(500, text), 500);
  });
  return app;
}
