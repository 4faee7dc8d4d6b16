/**
 * Conditional writes that may fail their condition. By error name, not instanceof: importing the
 * exception classes from the client package's index can pull the aggregated DynamoDB client into
 * a bundle (see api-key-access.ts).
 */

/** A single write (PutItem, UpdateItem, DeleteItem) whose ConditionExpression was false. */
export const isConditionFailure = (error: unknown): boolean =>
  (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException';

/** The command's output, or null when its condition failed (the item is gone, or not in the expected state). */
export async function unlessConditionFails<T>(send: Promise<T>): Promise<T | null> {
  try {
    return await send;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** For `.catch()`: a failed condition means there was nothing to do; any other error is thrown. */
export function ignoreConditionFailure(error: unknown): void {
  if (!isConditionFailure(error)) throw error;
}

/** True when the conditional write happened, false when its condition failed. */
export async function conditionHolds(send: Promise<unknown>): Promise<boolean> {
  return (await unlessConditionFails(send)) !== null;
}
