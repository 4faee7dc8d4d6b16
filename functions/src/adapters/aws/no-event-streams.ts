/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles only (an esbuild alias in
 * infra/lib/bundling.ts); local runs and tests use the real module.
 *
 * The SDK's HttpProtocol imports it lazily, for operations with an event-stream member only
 * (S3 SelectObjectContent, Bedrock or Transcribe streaming): no AgentDesk call has one, yet a
 * one-file bundle inlines the dynamic import (~15 KB in every function). A client that imports the
 * module statically (the S3 client) fails the build on a missing export instead of breaking at run time.
 */
const unavailable = (): never => {
  throw new Error('AWS SDK event streams are not bundled (infra/lib/bundling.ts aliases @smithy/core/event-streams)');
};

export const eventStreamSerdeProvider = unavailable;

export class EventStreamSerde {
  constructor() {
    unavailable();
  }
}
