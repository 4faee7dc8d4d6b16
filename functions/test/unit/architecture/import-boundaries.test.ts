/**
 * The lint rule that enforces the layering (eslint.boundaries.js): each kind of forbidden import
 * is reported and the allowed ones are not, so the boundaries cannot silently stop working.
 */
import path from 'node:path';
import { RuleTester, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';

// The rule is plain JS beside eslint.config.js; a computed specifier keeps tsc from asking for its types.
const rulePath = '../../../../eslint.boundaries.js';
const { boundaries } = (await import(rulePath)) as { boundaries: { rules: { 'import-boundaries': Rule.RuleModule } } };

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = path.resolve(import.meta.dirname, '../../../..');
const at = (file: string) => path.join(root, file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' } });
const rule = boundaries.rules['import-boundaries'];

tester.run('import-boundaries', rule, {
  valid: [
    { filename: at('functions/src/domain/whatsapp/inbound.ts'), code: "import { x } from '../conversations/ports.js';" },
    { filename: at('functions/src/domain/voice/calls.ts'), code: "import { x } from '../agents/service.js'; import { randomUUID } from 'node:crypto';" },
    { filename: at('functions/src/domain/contacts/phone.ts'), code: "import { parse } from 'libphonenumber-js/core'; import type { C } from '../../contract/contacts.js';" },
    { filename: at('functions/src/handlers/contacts.ts'), code: "import { contacts } from '../composition/contacts.js'; import { logger } from '../adapters/logger.js';" },
    { filename: at('functions/src/adapters/dynamo/agents.ts'), code: "import { QueryCommand } from '@aws-sdk/lib-dynamodb'; import type { P } from '../../domain/agents/ports.js';" },
    { filename: at('frontend/src/features/voice/CallsPage.tsx'), code: "import { PageButtons } from '../../shared/Pagination'; import { x } from './callFormat';" },
    { filename: at('frontend/src/app/AppRoutes.tsx'), code: "import { VoicePage } from '../features/voice/VoicePage';" },
  ],
  invalid: [
    { filename: at('functions/src/domain/conversations/service.ts'), code: "import { g } from '../whatsapp/integration.js';", errors: [{ message: /domain\/conversations may not import domain\/whatsapp/ }] },
    { filename: at('functions/src/domain/integrations/service.ts'), code: "export { t } from '../voice/ports.js';", errors: [{ message: /domain areas depend one way/ }] },
    { filename: at('functions/src/domain/voice/delivery.ts'), code: "import type { W } from '../whatsapp/ports.js';", errors: [{ message: /domain\/voice may not import domain\/whatsapp/ }] },
    { filename: at('functions/src/domain/knowledge/ingest.ts'), code: "import { S3Client } from '@aws-sdk/client-s3';", errors: [{ message: /imports no package/ }] },
    { filename: at('functions/src/domain/agents/service.ts'), code: "import { table } from '../../adapters/dynamo/table.js';", errors: [{ message: /never imports adapters/ }] },
    { filename: at('functions/src/handlers/stripe-webhook.ts'), code: "import { verify } from '../adapters/stripe/events.js';", errors: [{ message: /only through composition/ }] },
    { filename: at('functions/src/handlers/voice-webhook.ts'), code: "import twilio from 'twilio';", errors: [{ message: /never use an SDK/ }] },
    { filename: at('functions/src/contract/agents.ts'), code: "import { a } from '../domain/agents/view.js';", errors: [{ message: /contract\/ imports only contract/ }] },
    { filename: at('functions/src/adapters/aws/sqs.ts'), code: "import { c } from '../../composition/table.js';", errors: [{ message: /never import composition/ }] },
    { filename: at('frontend/src/features/voice/CallsPage.tsx'), code: "import { formatPhone } from '../contacts/phone';", errors: [{ message: /features\/voice may not import features\/contacts/ }] },
    { filename: at('frontend/src/features/billing/queries.ts'), code: "import { useAuth } from '../../app/auth';", errors: [{ message: /never import app/ }] },
    { filename: at('frontend/src/shared/Pagination.tsx'), code: "const m = import('../features/contacts/x');", errors: [{ message: /shared\/ is below the features/ }] },
  ],
});
