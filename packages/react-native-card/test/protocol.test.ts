import { parseServiceCardMessage, SERVICE_CARD_PROTOCOL_VERSION } from '../src';
import { RESULT } from './helpers';

describe('parseServiceCardMessage', () => {
  it('exposes protocol version 1', () => {
    expect(SERVICE_CARD_PROTOCOL_VERSION).toBe(1);
  });

  it('parses ready, success and error messages', () => {
    expect(parseServiceCardMessage('{"type":"ready","requestId":"r"}')).toEqual({
      ok: true,
      message: { type: 'ready', requestId: 'r' },
    });
    expect(parseServiceCardMessage('{"v":1,"type":"ready"}')).toEqual({
      ok: true,
      message: { v: 1, type: 'ready' },
    });
    expect(parseServiceCardMessage(JSON.stringify({ type: 'success', result: RESULT }))).toEqual({
      ok: true,
      message: { type: 'success', result: { ...RESULT } },
    });
    expect(
      parseServiceCardMessage(JSON.stringify({ type: 'error', error: { code: 'validation_error', message: 'm', retryable: false } })),
    ).toEqual({
      ok: true,
      message: { type: 'error', error: { code: 'validation_error', message: 'm', retryable: false } },
    });
  });

  it('keeps an empty or absent nickname as sent', () => {
    const { nickname: _n, ...withoutNickname } = RESULT;
    const absent = parseServiceCardMessage(JSON.stringify({ type: 'success', result: withoutNickname }));
    expect(absent.ok && absent.message.type === 'success' && 'nickname' in absent.message.result).toBe(false);
    const empty = parseServiceCardMessage(JSON.stringify({ type: 'success', result: { ...RESULT, nickname: '' } }));
    expect(empty.ok && empty.message.type === 'success' && empty.message.result.nickname).toBe('');
  });

  it('gives a reason for rejected messages', () => {
    expect(parseServiceCardMessage('{')).toEqual({ ok: false, reason: 'message is not valid JSON' });
    expect(parseServiceCardMessage('{"type":"ready","v":"1"}')).toEqual({
      ok: false,
      reason: 'unsupported protocol version',
    });
  });
});
