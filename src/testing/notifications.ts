import type { DeliveryNotification } from './types';

/** Accepted delivery notifications (spec 4.14); one per request to pay, then 429. */
export class DeliveryLog {
  private records: DeliveryNotification[] = [];

  get all(): DeliveryNotification[] {
    return this.records.map((record) => ({ ...record }));
  }

  has(referenceId: string): boolean {
    const id = referenceId.toLowerCase();
    return this.records.some((record) => record.referenceId.toLowerCase() === id);
  }

  add(record: DeliveryNotification): void {
    this.records.push({ ...record });
  }

  reset(): void {
    this.records = [];
  }
}
