export { ServiceCardForm, SERVICE_CARD_WEBVIEW_HARDENING } from './ServiceCardForm';
export { SERVICE_CARD_ERROR_CODES } from './types';
export type { ServiceCardError, ServiceCardErrorCode, ServiceCardFormProps, ServiceCardTokenizedResult } from './types';
export {
  SERVICE_CARD_PROTOCOL_VERSION,
  SERVICE_CARD_PAGE_ERROR_CODES,
  SERVICE_CARD_MAX_MESSAGE_LENGTH,
  parseServiceCardMessage,
} from './protocol';
export type {
  ServiceCardProtocolVersion,
  ServiceCardReadyMessage,
  ServiceCardSuccessMessage,
  ServiceCardErrorMessage,
  ServiceCardPageErrorCode,
  ServiceCardHostedMessage,
  ServiceCardMessageType,
  ServiceCardParseResult,
} from './protocol';
