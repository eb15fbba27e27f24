interface KeyState {
  /** The request sent last and not yet settled. */
  sent?: Promise<unknown>;
  /** The request that goes out once `sent` settles, shared by everyone who asked meanwhile. */
  next?: Promise<unknown>;
}

const ignore = () => undefined;

/**
 * Callers asking the same thing at the same time share one request. A caller never joins a request already sent:
 * it joins the next one, sent as soon as the one in flight settles. Every answer is therefore read after its caller
 * asked, and nobody reads older than their own last write. At most two requests per key are out at once: one in
 * flight and one waiting, however many callers ask.
 */
export class SharedRequests {
  private readonly byKey = new Map<string, KeyState>();

  run<T>(key: string, send: () => Promise<T>): Promise<T> {
    let state = this.byKey.get(key);
    if (!state) {
      state = {};
      this.byKey.set(key, state);
    }
    if (state.next) return state.next as Promise<T>;
    if (!state.sent) return this.send(key, state, send);
    const waiting = state;
    const next = state.sent.then(ignore, ignore).then(() => {
      waiting.next = undefined;
      return this.send(key, waiting, send);
    });
    state.next = next;
    return next;
  }

  private send<T>(key: string, state: KeyState, send: () => Promise<T>): Promise<T> {
    const sent = send();
    state.sent = sent;
    void sent.then(ignore, ignore).then(() => {
      if (state.sent !== sent) return;
      state.sent = undefined;
      if (!state.next) this.byKey.delete(key);
    });
    return sent;
  }
}
