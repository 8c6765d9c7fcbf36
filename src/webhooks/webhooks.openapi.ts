import { registerOpenApiWebhooks } from '../../kernel/platform/openapi/truth';
import { ACQUIRING_EVENT_TYPES } from './event-types';

/**
 * The requests this service sends to a tenant's webhook URL, as OpenAPI 3.1 `webhooks`, so a
 * client team generates their types: the acquiring events (HMAC-signed JSON) and the recurring
 * debit events (AES-256-GCM sealed; the plaintext event is described too).
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const answer = { '2XX': { description: 'Received; any other answer (or none within 10 s) is retried with backoff' } };

registerOpenApiWebhooks(
  {
    acquiring: {
      post: {
        summary: 'An acquiring event (card, Pix or boleto payment, payout, payment slip, refund, dispute)',
        description:
          'Signed: verify `X-Service-Signature` (`sha256=<hex HMAC-SHA256 of the raw body>` with the registration secret) before parsing. Dedupe on `X-Service-Webhook-Id`.',
        parameters: [
          { name: 'X-Service-Signature', in: 'header', required: true, schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } },
          {
            name: 'X-Service-Signature-Previous',
            in: 'header',
            required: false,
            description: 'During a secret rotation: the same with the previous secret',
            schema: { type: 'string' },
          },
          {
            name: 'X-Service-Signature-V2',
            in: 'header',
            required: true,
            description: '`t=<timestamp>,v1=<hex HMAC-SHA256 of "<webhook id>.<timestamp>.<raw body>">`',
            schema: { type: 'string' },
          },
          { name: 'X-Service-Webhook-Id', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'X-Service-Timestamp', in: 'header', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('AcquiringWebhookEvent') } } },
        responses: answer,
      },
    },
    pixAutomatic: {
      post: {
        summary: 'A recurring debit (Pix Automático) event, sealed with AES-256-GCM',
        description:
          'Open the envelope with the registration key (`keyId` names it): AES-256-GCM, 12-byte IV, 16-byte tag, no additional data; the plaintext is a `PixAutomaticWebhookEvent`.',
        parameters: [
          { name: 'X-Service-Webhook-Id', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'X-Service-Timestamp', in: 'header', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('SealedWebhookEnvelope') } } },
        responses: answer,
      },
    },
  },
  {
    AcquiringWebhookEvent: {
      type: 'object',
      required: ['id', 'type', 'createdAt', 'data'],
      properties: {
        id: { type: 'string', example: 'evt_5f0c6a1e2b3c4d5e6f708192' },
        type: { type: 'string', enum: [...ACQUIRING_EVENT_TYPES] },
        createdAt: { type: 'string', format: 'date-time' },
        data: {
          type: 'object',
          additionalProperties: true,
          description:
            'The resource as its route answers it (a card payment, a payment item, a payout, a payment slip, a refund, a dispute)',
        },
      },
    },
    SealedWebhookEnvelope: {
      type: 'object',
      required: ['keyId', 'iv', 'ciphertext', 'tag'],
      properties: {
        keyId: { type: 'string', example: 'key_6f1c2a0e5c1f4f63' },
        iv: { type: 'string', contentEncoding: 'base64', description: '12 bytes' },
        ciphertext: { type: 'string', contentEncoding: 'base64' },
        tag: { type: 'string', contentEncoding: 'base64', description: '16 bytes' },
      },
    },
    PixAutomaticWebhookEvent: {
      type: 'object',
      description: 'The plaintext inside a SealedWebhookEnvelope',
      required: ['id', 'event_type', 'idTx', 'occurredAt', 'data'],
      properties: {
        id: { type: 'string' },
        event_type: { type: 'string', pattern: '^PIX_AUTOMATIC_RECEIVER_[A-Z_]+$', example: 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED' },
        idTx: { type: 'string' },
        occurredAt: { type: 'string', format: 'date-time' },
        data: { type: 'object', additionalProperties: true, description: 'The recurrence or billing as its route answers it' },
      },
    },
  },
);
