/**
 * How long an unfinished generation is kept waiting for: the client's page stops polling at 120 s (docs/product.md
 * §9) and shows the failure; a little later the generation itself is failed, so nobody waits on it and the client
 * can ask again (one unfinished generation per client).
 */
export const GIVE_UP_SECONDS = 150;
