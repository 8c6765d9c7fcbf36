/** Styles of the checkout, boleto and receipt pages (served from our origin: the CSP allows no inline style). */
export const CHECKOUT_CSS = `*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f5f8;color:#1d2433}
.checkout{max-width:480px;margin:24px auto;background:#fff;border-radius:14px;box-shadow:0 4px 18px #0001;padding:24px;position:relative}
body.embed{background:transparent}body.embed .checkout{margin:0 auto}
header h1{font-size:22px;margin:4px 0}.merchant{color:#667;margin:0;font-size:14px}.description{color:#445}
.price{font-size:28px;font-weight:700;margin:8px 0}.price small{font-size:13px;font-weight:400;color:#667}
.field{display:block;margin:10px 0;font-size:14px;color:#445}.field input,.field select,.field textarea{display:block;width:100%;margin-top:4px;padding:10px;border:1px solid #ccd3de;border-radius:8px;font-size:16px}
.row{display:flex;gap:12px}.row .field{flex:1}.payer{border:0;padding:0;margin:12px 0}.payer legend{font-weight:600}
.tabs{display:flex;gap:6px;margin:16px 0 8px}.tab{flex:1;padding:10px;border:1px solid #ccd3de;border-radius:8px;background:#fff;cursor:pointer;font-size:15px}
.tab.active{background:#1d4ed8;color:#fff;border-color:#1d4ed8}.pay{width:100%;padding:14px;border:0;border-radius:10px;background:#16a34a;color:#fff;font-size:17px;cursor:pointer;margin-top:8px}
.pay:disabled{opacity:.6}.secondary{padding:8px 12px;border:1px solid #ccd3de;border-radius:8px;background:#fff;cursor:pointer}
.error{color:#b91c1c;min-height:1em}.status{font-weight:600}.hint{color:#667;font-size:13px}.figure{font-size:20px;font-weight:600}
.brand{float:right;text-transform:uppercase;font-size:12px;color:#1d4ed8}.line{font-family:ui-monospace,monospace;font-size:15px;word-break:break-all}
#boleto-barcode,.barcode{max-width:100%;height:60px;display:block;margin:8px 0}.done{text-align:center}.done h2{color:#16a34a}
.close{position:absolute;right:12px;top:8px;border:0;background:none;font-size:26px;cursor:pointer;color:#667}
.sandbox{margin-top:16px;font-size:12px;color:#92400e;background:#fef3c7;padding:6px 10px;border-radius:6px}
.unavailable h1{color:#b91c1c}.boleto,.receipt{max-width:760px;margin:24px auto;background:#fff;padding:24px}
.slip{width:100%;border-collapse:collapse;margin:12px 0}.slip th,.slip td{border:1px solid #999;padding:6px;text-align:left;font-size:14px}.slip th{background:#f1f1f1;width:18%}
.pixbox{display:flex;align-items:center;gap:12px}
@media print{.no-print{display:none}body{background:#fff}.boleto,.receipt{box-shadow:none;margin:0}}
`;
