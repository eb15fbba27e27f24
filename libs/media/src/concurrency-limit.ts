/**
 * Runs tasks whose weights together stay within `capacity` (a count when every weight is 1, or bytes held in
 * memory); the others wait their turn in order. A task heavier than the capacity runs alone.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: { weight: number; start: () => void }[] = [];

  constructor(private readonly capacity: number) {}

  async run<T>(task: () => Promise<T>, weight = 1): Promise<T> {
    const held = Math.min(weight, this.capacity);
    // First come, first served: a newcomer that would fit waits behind an earlier, heavier task, so none starves.
    if (this.waiting.length === 0 && this.active + held <= this.capacity) this.active += held;
    else await new Promise<void>((start) => this.waiting.push({ weight: held, start }));
    try {
      return await task();
    } finally {
      this.active -= held;
      this.startWaiting();
    }
  }

  private startWaiting(): void {
    for (let next = this.waiting[0]; next && this.active + next.weight <= this.capacity; next = this.waiting[0]) {
      this.waiting.shift();
      this.active += next.weight;
      next.start();
    }
  }
}
