/**
 * The fault matrix's runtime (issue 34): one local stack in a process of its own, so a row can
 * crash it (SIGKILL of its process group: the stack, DynamoDB Local, cognito-local, like a power
 * cut) and start it again on the same data folder and ports. Started by matrix-stack.ts; the fakes
 * (OpenAI, Graph, Twilio) live in the parent and survive the crash, as the real providers would.
 *
 * Input: MATRIX_STACK_CONFIG (JSON {dataDir, ports, env}). Output: one stdout line
 * `@@matrix-stack-ready@@{…}` with what the parent needs; SIGTERM stops the stack cleanly.
 */
import { startLocalStack } from '../../../local/stack.js';
import { READY_PREFIX, type MatrixStackConfig, type MatrixStackReady } from './matrix-stack.js';

async function main(): Promise<void> {
  const config = JSON.parse(process.env.MATRIX_STACK_CONFIG ?? '') as MatrixStackConfig;
  const stack = await startLocalStack({
    dataDir: config.dataDir,
    ports: config.ports,
    quiet: true,
    faultProxies: true,
    // The providers are the parent's fakes (config.env points the handlers at them).
    openai: false,
    whatsapp: false,
    twilio: false,
    stripe: { retryDelaysMs: [50, 200] },
    env: config.env,
  });
  const ready: MatrixStackReady = {
    apiUrl: stack.apiUrl,
    mailboxUrl: stack.mailboxUrl,
    deadLettersUrl: stack.deadLettersUrl,
    faultsUrl: stack.faultsUrl ?? '',
    endpoints: stack.endpoints,
    tableName: stack.tableName,
    uploadsBucket: stack.uploadsBucket,
    queueUrls: stack.queueUrls,
    stripeApiUrl: stack.stripe?.apiUrl ?? '',
  };
  process.stdout.write(`\n${READY_PREFIX}${JSON.stringify(ready)}\n`);
  process.once('SIGTERM', () => {
    void stack.stop().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(`matrix stack failed to start: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
