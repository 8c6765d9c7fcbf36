import { FuzzCase } from './cases';
import { judge } from './runner';

const c = (over: Partial<FuzzCase> = {}): FuzzCase => ({
  op: 'POST /x',
  name: 'n',
  method: 'POST',
  url: '/x',
  headers: {},
  forbidden: false,
  htmlStatuses: [],
  ...over,
});
const envelope = (status: number, error = 'validation_error') => ({ statusCode: status, error, message: 'm', requestId: 'r' });
const answer = (status: number, body: unknown, over: Partial<FuzzCase> = {}, contentType = 'application/json') => ({
  case: c(over),
  status,
  body,
  text: JSON.stringify(body),
  contentType,
});

describe("the fuzz's judge", () => {
  it('a 4xx in the envelope, a 2xx for allowed input and a documented spec 500 pass', () => {
    expect(judge(answer(400, envelope(400)))).toEqual([]);
    expect(judge(answer(201, { id: 1 }))).toEqual([]);
    expect(judge(answer(500, envelope(500, 'provider_unavailable')))).toEqual([]);
  });
  it('an internal 500, a 503, a 4xx outside the envelope, a 2xx for forbidden input and no answer fail', () => {
    expect(judge(answer(500, envelope(500, 'internal_error')))).toEqual(['5xx']);
    expect(judge(answer(503, envelope(503, 'service_unavailable')))).toEqual(['5xx']);
    expect(judge(answer(414, { error: 'Bad Request', code: 'FST_ERR_MAX_PARAM_LENGTH' }))).toEqual(['4xx outside the envelope']);
    expect(judge(answer(400, { ...envelope(400), statusCode: 500 }))).toEqual(['4xx outside the envelope']);
    expect(judge(answer(200, {}, { forbidden: true }))).toEqual(['2xx for forbidden input']);
    expect(judge({ ...answer(0, undefined), text: 'client error' })).toEqual(['no answer']);
  });
  it('an HTML error page passes only where the document says the operation answers HTML', () => {
    expect(judge(answer(404, undefined, { htmlStatuses: [404] }, 'text/html; charset=utf-8'))).toEqual([]);
    expect(judge(answer(404, undefined, {}, 'text/html; charset=utf-8'))).toEqual(['4xx outside the envelope']);
  });
});
