interface Waiting {
  weight: number;
  turn: number;
  start: () => void;
}

/**
 * Runs tasks whose weights together stay within `capacity` (a count when every weight is 1, or bytes held in
 * memory); the others wait their turn. A task heavier than the capacity runs alone. Tasks given an `owner` take
 * turns with other owners' (each waiting owner's oldest task in turn), so one owner's backlog never holds up the
 * others; tasks without one run in order of arrival, each in the turn current when it comes, so they overtake
 * owners' tasks waiting for a later turn: give every task of one limit an owner, or none.
 */
export class ConcurrencyLimit {
  private active = 0;
  // The turn of the task started last: a newcomer is served in it, unless its owner already was.
  private turn = 0;
  // Sorted by turn, then arrival.
  private readonly waiting: Waiting[] = [];
  // An owner whose task ended is remembered until its turn is past: forgotten at once, an owner sending one task
  // after another would rejoin the current turn each time, and a few such could hold back a waiting owner for ever.
  // Once nothing waits it can hold back no one, and is forgotten then too, or every owner seen would stay.
  private readonly owners = new Map<string, { tasks: number; lastTurn: number }>();

  constructor(private readonly capacity: number) {}

  async run<T>(task: () => Promise<T>, weight = 1, owner?: string): Promise<T> {
    const held = Math.min(weight, this.capacity);
    const turn = this.join(owner);
    await new Promise<void>((start) => {
      this.enqueue({ weight: held, turn, start });
      this.startWaiting();
    });
    try {
      return await task();
    } finally {
      this.active -= held;
      const known = owner === undefined ? undefined : this.owners.get(owner);
      if (known) known.tasks--;
      this.startWaiting();
      this.forgetIdleOwners();
    }
  }

  private join(owner: string | undefined): number {
    if (owner === undefined) return this.turn;
    const known = this.owners.get(owner);
    const turn = known ? Math.max(this.turn, known.lastTurn + 1) : this.turn;
    this.owners.set(owner, { tasks: (known?.tasks ?? 0) + 1, lastTurn: turn });
    return turn;
  }

  private enqueue(waiting: Waiting): void {
    const later = this.waiting.findIndex((other) => other.turn > waiting.turn);
    this.waiting.splice(later === -1 ? this.waiting.length : later, 0, waiting);
  }

  // First in line, first served: a newcomer that would fit waits behind an earlier, heavier task of its turn or an
  // earlier one. One of an earlier turn goes ahead, but each other owner only once a turn, so none starves.
  private startWaiting(): void {
    for (let next = this.waiting[0]; next && this.active + next.weight <= this.capacity; next = this.waiting[0]) {
      this.waiting.shift();
      this.active += next.weight;
      this.turn = Math.max(this.turn, next.turn);
      next.start();
    }
  }

  // An idle owner last served before the current turn would join it as a newcomer does.
  private forgetIdleOwners(): void {
    const nothingWaits = this.waiting.length === 0;
    for (const [owner, known] of this.owners) {
      if (known.tasks === 0 && (nothingWaits || known.lastTurn < this.turn)) this.owners.delete(owner);
    }
  }
}
