/**
 * The outbox worker. It polls (and is nudged), runs the partners' chores (expired follows, digests due),
 * and keeps up to `concurrency` sends in flight: whenever a send slot is free it claims that many due
 * messages, each endpoint's oldest first, round-robin across endpoints, and never more than
 * `perEndpoint` leased to one endpoint (counted over every instance's live leases), so an endpoint that
 * never answers holds a few slots and the others keep theirs.
 *
 * Exactly once in normal operation, on one instance or several on one PostgreSQL: a message is claimed
 * (`FOR UPDATE SKIP LOCKED`) only when a slot is free to send it at once, with a lease of its own on the
 * database's clock that outlasts the send's deadline (the sender's own timeouts) by `leaseMarginMs`,
 * the time to record the result; each result is recorded as soon as its send ends, by the lease holder
 * only. After a crash mid-send the lease runs out and another worker sends again: at least once
 * (receivers deduplicate by `webhook-id`).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { Logger } from '../platform/app-env';
import type { Clock } from '../platform/clock';
import type { Database } from '../platform/db/driver';
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, retryDelayMs } from './retry';
import type { DeliveryOutcome, WebhookSender } from './sender';
import { untilAborted } from '../platform/lifetime';

/** Work done before delivering (the partners domain's: follows whose link expired, digests due). */
export interface Chores {
  /** Follows ended because their link expired; returns the events written. */
  expire(now: Date): Promise<number>;
  /** Held events packed into digests whose period ended; returns the digests queued. */
  packDigests(now: Date): Promise<number>;
}

export interface DispatcherOptions {
  db: Database;
  clock: Clock;
  sender: WebhookSender;
  chores?: Chores;
  logger?: Logger;
  /** Jitter source in [0, 1) (tests fix it). */
  random?: () => number;
  /** Real time, for `webhook-timestamp`: receivers compare it with their own clocks (default: Date.now). */
  wallClock?: () => Date;
  /** How often the outbox is looked at without a nudge. */
  pollIntervalMs?: number;
  /** Sends in flight at once on this instance. */
  concurrency?: number;
  /** Messages leased to one endpoint at once, over all instances: its share of the send slots. */
  perEndpoint?: number;
  /** How long a message's lease outlasts its send's deadline: the time allowed to record the result. */
  leaseMarginMs?: number;
}

export interface TickReport {
  expired: number;
  digests: number;
  delivered: number;
  failed: number;
}

const claimedRow = z.object({
  id: z.string(),
  body: z.string(),
  attempts: z.number(),
  created_at: z.date(),
  seq: z.coerce.number(),
  endpoint_id: z.string(),
  url: z.string(),
  secret: z.string(),
});
type Claimed = z.infer<typeof claimedRow>;

const failedRow = z.object({ status: z.string() });
const endpointRow = z.object({ failing_since: z.date().nullable() });

export const DEFAULT_POLL_INTERVAL_MS = 500;
export const DEFAULT_CONCURRENCY = 16;
export const DEFAULT_PER_ENDPOINT = 4;
export const DEFAULT_LEASE_MARGIN_MS = 5_000;
/** REST Hooks: a receiver that answers 410 Gone wants no more deliveries; its endpoint is disabled at once. */
export const GONE_REASON = 'the receiver answered 410 Gone';
const USER_AGENT = 'ComplianceLens-Webhooks/1.0 (+Standard Webhooks)';

/**
 * Each enabled endpoint's oldest due messages that no live lease holds, ranked per endpoint; taken by
 * rank (round-robin: every endpoint's first, then every second…) up to the free slots, and per endpoint
 * up to its share less what is already leased to it.
 */
const CLAIM = `
WITH leased AS (
  SELECT endpoint_id, count(*)::int AS n FROM webhook_messages
  WHERE status = 'pending' AND lease_token IS NOT NULL AND lease_expires_at > clock_timestamp()
  GROUP BY endpoint_id
), due AS (
  SELECT c.id, c.endpoint_id, c.next_attempt_at, c.seq,
    row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.seq) AS rank
  FROM webhook_endpoints e
  CROSS JOIN LATERAL (
    SELECT m.id, m.endpoint_id, m.next_attempt_at, m.seq FROM webhook_messages m
    WHERE m.endpoint_id = e.id AND m.status = 'pending' AND m.next_attempt_at <= $3::timestamptz
      AND (m.lease_expires_at IS NULL OR m.lease_expires_at < clock_timestamp())
    ORDER BY m.next_attempt_at, m.seq LIMIT $4
  ) c
  WHERE e.status = 'enabled'
), picked AS (
  SELECT d.id FROM due d LEFT JOIN leased l ON l.endpoint_id = d.endpoint_id
  WHERE d.rank <= $4 - COALESCE(l.n, 0)
  ORDER BY d.rank, d.next_attempt_at, d.seq LIMIT $5
)
UPDATE webhook_messages m SET lease_token = $1, lease_expires_at = clock_timestamp() + make_interval(secs => $2)
FROM webhook_endpoints e
WHERE e.id = m.endpoint_id AND m.id IN (
  SELECT m2.id FROM webhook_messages m2
  WHERE m2.id IN (SELECT id FROM picked) AND m2.status = 'pending'
    AND (m2.lease_expires_at IS NULL OR m2.lease_expires_at < clock_timestamp())
  FOR UPDATE OF m2 SKIP LOCKED)
RETURNING m.id, m.body, m.attempts, m.created_at, m.seq, e.id AS endpoint_id, e.url, e.secret`;

/** A success, recorded by the lease holder: the message, its attempt and its endpoint in one statement. */
const RECORD_DELIVERY = `
WITH m AS (
  UPDATE webhook_messages SET status = 'delivered', attempts = attempts + 1, delivered_at = $3::timestamptz,
    last_attempt_at = $3::timestamptz, last_status = $4, last_error = NULL, lease_token = NULL, lease_expires_at = NULL
  WHERE id = $1 AND lease_token = $2 RETURNING id, endpoint_id
), attempt AS (
  INSERT INTO webhook_attempts (message_id, attempted_at, status, error, duration_ms, delivered)
  SELECT id, $5::timestamptz, $4, NULL, $6, true FROM m
)
UPDATE webhook_endpoints e SET failure_streak = 0, failing_since = NULL, last_success_at = $3::timestamptz
FROM m WHERE e.id = m.endpoint_id`;

/** A failure, recorded by the lease holder: the message (retry time or given up) and its attempt. */
const RECORD_FAILURE = `
WITH m AS (
  UPDATE webhook_messages SET attempts = attempts + 1, last_attempt_at = $3::timestamptz, last_status = $4,
    last_error = $5, status = CASE WHEN attempts + 1 >= $6 THEN 'failed' ELSE 'pending' END,
    next_attempt_at = $7::timestamptz, lease_token = NULL, lease_expires_at = NULL
  WHERE id = $1 AND lease_token = $2 RETURNING id, status
), attempt AS (
  INSERT INTO webhook_attempts (message_id, attempted_at, status, error, duration_ms, delivered)
  SELECT id, $8::timestamptz, $4, $5, $9, false FROM m
)
SELECT status FROM m`;

export class WebhookDispatcher {
  private readonly db: Database;
  private readonly clock: Clock;
  private readonly sender: WebhookSender;
  private readonly chores?: Chores;
  private readonly logger?: Logger;
  private readonly random: () => number;
  private readonly wallClock: () => Date;
  private readonly pollIntervalMs: number;
  private readonly concurrency: number;
  private readonly perEndpoint: number;
  private readonly leaseSeconds: number;
  private readonly signers = new Map<string, Webhook>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly counts = { delivered: 0, failed: 0 };
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private ticking = 0;
  private claiming: Promise<void> | null = null;
  private claimAgain = false;
  private passing: Promise<void> | null = null;
  private passAgain = false;

  constructor(options: DispatcherOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.sender = options.sender;
    this.chores = options.chores;
    this.logger = options.logger;
    this.random = options.random ?? Math.random;
    this.wallClock = options.wallClock ?? (() => new Date());
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.perEndpoint = Math.min(options.perEndpoint ?? DEFAULT_PER_ENDPOINT, this.concurrency);
    this.leaseSeconds = (this.sender.timeoutMs + (options.leaseMarginMs ?? DEFAULT_LEASE_MARGIN_MS)) / 1000;
  }

  /**
   * Polls the outbox until `signal` aborts. The promise settles once it has stopped claiming and what
   * was under way has ended: chores and sends (each ends by its deadline).
   */
  async run(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error('this dispatcher is running already');
    if (signal.aborted) return;
    this.started = true;
    this.schedule(0);
    await untilAborted(signal);
    this.started = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.passing;
    await this.claiming;
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  /** Look at the outbox now (a change was recorded, or the dev clock moved). */
  nudge(): void {
    if (this.started) this.schedule(0);
  }

  /**
   * One pass for tests: the chores, then every message due now, until nothing due is left and every
   * send has been recorded. Counts what this pass delivered and what failed.
   */
  async tick(): Promise<TickReport> {
    const before = { ...this.counts };
    this.ticking += 1;
    try {
      const { expired, digests } = await this.runChores();
      for (;;) {
        await this.fill();
        if (this.inFlight.size === 0) break;
        await Promise.race(this.inFlight);
      }
      return {
        expired,
        digests,
        delivered: this.counts.delivered - before.delivered,
        failed: this.counts.failed - before.failed,
      };
    } finally {
      this.ticking -= 1;
    }
  }

  private get accepting(): boolean {
    return this.started || this.ticking > 0;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.pass();
    }, delayMs);
  }

  /** Chores, then fill the free slots; the next poll after it (at once if a nudge came meanwhile). */
  private pass(): Promise<void> {
    if (this.passing) {
      this.passAgain = true;
      return this.passing;
    }
    this.passing = (async () => {
      try {
        await this.runChores();
        await this.fill();
      } catch (error) {
        this.logger?.error('webhook dispatcher pass failed', error);
      } finally {
        this.passing = null;
        const again = this.passAgain;
        this.passAgain = false;
        if (this.started && this.timer === undefined) this.schedule(again ? 0 : this.pollIntervalMs);
      }
    })();
    return this.passing;
  }

  private async runChores(): Promise<{ expired: number; digests: number }> {
    if (this.chores === undefined) return { expired: 0, digests: 0 };
    const now = this.clock.now();
    return { expired: await this.chores.expire(now), digests: await this.chores.packDigests(now) };
  }

  /** Claims as many due messages as there are free slots and starts sending each at once. */
  private fill(): Promise<void> {
    if (this.claiming) {
      this.claimAgain = true;
      return this.claiming;
    }
    const claiming = (async () => {
      do {
        this.claimAgain = false;
        const free = this.concurrency - this.inFlight.size;
        if (free <= 0 || !this.accepting) return;
        for (const message of await this.claim(free)) this.launch(message);
      } while (this.claimAgain);
    })()
      .catch((error: unknown) => this.logger?.error('webhooks: claim failed', error))
      .finally(() => {
        this.claiming = null;
      });
    this.claiming = claiming;
    return claiming;
  }

  private launch(message: Claimed & { lease: string }): void {
    const sending: Promise<void> = this.deliver(message)
      .catch((error: unknown) => {
        // Still leased: once the lease runs out it is sent again (at least once).
        this.logger?.error(`webhook ${message.id}: could not record the attempt`, error);
      })
      .finally(() => {
        this.inFlight.delete(sending);
        if (this.accepting) void this.fill();
      });
    this.inFlight.add(sending);
  }

  private async claim(limit: number): Promise<(Claimed & { lease: string })[]> {
    const lease = randomUUID();
    const result = await this.db.query(CLAIM, [
      lease,
      this.leaseSeconds,
      this.clock.now().toISOString(),
      this.perEndpoint,
      limit,
    ]);
    // RETURNING has no order: send in the order they were written.
    return result.rows.map((row) => ({ ...claimedRow.parse(row), lease })).sort((a, b) => a.seq - b.seq);
  }

  private async deliver(message: Claimed & { lease: string }): Promise<void> {
    const attemptedAt = this.clock.now();
    const started = performance.now();
    const outcome = await this.send(message);
    const durationMs = Math.round(performance.now() - started);
    if (outcome.ok) {
      await this.db.query(RECORD_DELIVERY, [
        message.id,
        message.lease,
        this.clock.now().toISOString(),
        outcome.status,
        attemptedAt.toISOString(),
        durationMs,
      ]);
      this.counts.delivered += 1;
      return;
    }
    this.counts.failed += 1;
    await this.recordFailure(message, outcome, attemptedAt, durationMs);
  }

  private signer(secret: string): Webhook {
    let signer = this.signers.get(secret);
    if (!signer) this.signers.set(secret, (signer = new Webhook(secret)));
    return signer;
  }

  /** Signs (Standard Webhooks: id, whole-second timestamp, body) and sends, by its deadline; never throws. */
  private async send(message: Claimed): Promise<DeliveryOutcome> {
    const deadline = AbortSignal.timeout(this.sender.timeoutMs);
    const gaveUp = new Promise<DeliveryOutcome>((resolve) => {
      deadline.addEventListener(
        'abort',
        () => resolve({ ok: false, status: null, error: 'gave up: the delivery deadline passed' }),
        {
          once: true,
        },
      );
    });
    try {
      const timestamp = this.wallClock();
      const headers = {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': this.signer(message.secret).sign(message.id, timestamp, message.body),
      };
      return await Promise.race([this.sender.send({ url: message.url, headers, body: message.body }, deadline), gaveUp]);
    } catch (error) {
      return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private async recordFailure(
    message: Claimed & { lease: string },
    outcome: DeliveryOutcome & { ok: false },
    attemptedAt: Date,
    durationMs: number,
  ): Promise<void> {
    const now = this.clock.now();
    const nextAttempt = new Date(now.getTime() + retryDelayMs(message.attempts + 1, this.random));
    const error = outcome.error.slice(0, 500);
    const failed = await this.db.query(RECORD_FAILURE, [
      message.id,
      message.lease,
      now.toISOString(),
      outcome.status,
      error,
      MAX_ATTEMPTS,
      nextAttempt.toISOString(),
      attemptedAt.toISOString(),
      durationMs,
    ]);
    const row = failed.rows[0];
    if (row === undefined) return; // the lease ran out and another worker owns the message now
    const exhausted = failedRow.parse(row).status === 'failed';
    const endpoint = await this.db.query(
      `UPDATE webhook_endpoints SET failure_streak = failure_streak + 1, failing_since = COALESCE(failing_since, $2::timestamptz),
         last_failure_at = $2::timestamptz, last_error = $3
       WHERE id = $1 RETURNING failing_since`,
      [message.endpoint_id, now.toISOString(), error],
    );
    const failingSince = endpoint.rows[0] === undefined ? null : endpointRow.parse(endpoint.rows[0]).failing_since;
    if (failingSince === null) return;
    const failingFor = now.getTime() - failingSince.getTime();
    // Disabled when the receiver says it is gone, when it has not taken a single delivery for three
    // days, or when a message gave up after failing every attempt since it was written (no success in between).
    const reason =
      outcome.status === 410
        ? GONE_REASON
        : failingFor >= DISABLE_AFTER_FAILING_MS
          ? 'no successful delivery for 72 hours'
          : exhausted && failingSince.getTime() <= message.created_at.getTime()
            ? `a message failed all ${MAX_ATTEMPTS} attempts`
            : null;
    if (reason !== null) {
      await this.db.query(
        `UPDATE webhook_endpoints SET status = 'disabled', disabled_at = $2::timestamptz, disabled_reason = $3
         WHERE id = $1 AND status = 'enabled'`,
        [message.endpoint_id, now.toISOString(), reason],
      );
    }
  }
}
