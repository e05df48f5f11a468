import { v4 as uuidv4 } from 'uuid';

/**
 * The one owner of reference ids: the caller's, when given, or a new UUID v4. Chosen
 * once per call, before anything is sent, and reused by every attempt.
 */
export function chooseReferenceId(given: unknown): string {
  return typeof given === 'string' ? given : uuidv4();
}
