import type { FastifyReply } from 'fastify';

/** Why a request whose caller went away was not run to its end (answered 499, which nobody receives). */
export const CLIENT_GONE_MESSAGE = 'The client went away.';

/**
 * Calls `then` once the answer is sent or the caller has gone away, at once if that has already
 * happened: a response emits 'close' only once, so a caller that left while an earlier hook was
 * still at work (the auth gate naming it, a wait for the tenant's turn) had its 'close' before a
 * later listener was added.
 */
export function whenClosed(reply: FastifyReply, then: () => void): void {
  if (reply.raw.closed) return then();
  reply.raw.once('close', then);
}
