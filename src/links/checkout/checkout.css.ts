/** Styles of the checkout, boleto and receipt pages (served from our origin: the CSP allows no inline style). */
export const CHECKOUT_CSS = `*{box-sizing:border-box}[hidden]{display:none!important}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f5f8;color:#1d2433}
.checkout{max-width:480px;margin:24px auto;background:#fff;border-radius:14px;box-shadow:0 4px 18px #0001;padding:24px;position:relative}
@media (max-width:520px){.checkout{margin:0;border-radius:0;padding:16px}}
body.embed{background:transparent}body.embed .checkout{margin:0 auto}
header h1{font-size:22px;margin:4px 0;padding-right:28px}.merchant{color:#556;margin:0;font-size:14px}.description{color:#445}
.price{font-size:28px;font-weight:700;margin:8px 0}.price small{font-size:13px;font-weight:400;color:#556}
.field{margin:10px 0;font-size:14px;color:#334}.field label{display:block}
.field input,.field select,.field textarea{display:block;width:100%;margin-top:4px;padding:10px;border:1px solid #8a94a6;border-radius:8px;font-size:16px;background:#fff;color:#1d2433}
.field [aria-invalid=true]{border-color:#b91c1c;border-width:2px}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.row{display:flex;gap:12px}.row .field{flex:1;min-width:0}.payer{border:0;padding:0;margin:12px 0}.payer legend{font-weight:600}
.tabs{display:flex;gap:6px;margin:16px 0 8px}.tab{flex:1;padding:10px;border:1px solid #8a94a6;border-radius:8px;background:#fff;color:#1d2433;cursor:pointer;font-size:15px}
.tab.active{background:#1d4ed8;color:#fff;border-color:#1d4ed8}.pay{width:100%;padding:14px;border:0;border-radius:10px;background:#15803d;color:#fff;font-size:17px;cursor:pointer;margin-top:8px}
.pay:disabled{opacity:.75}.secondary{padding:10px 14px;border:1px solid #8a94a6;border-radius:8px;background:#fff;color:#1d2433;cursor:pointer;font-size:15px}
.error{color:#b91c1c;margin:4px 0 0;font-size:14px}.error:empty{display:none}.status{font-weight:600}.hint{color:#556;font-size:13px}.figure{font-size:20px;font-weight:600}
.copied{color:#15803d;font-weight:600}.countdown{color:#334}.error-box{color:#b91c1c}.label{margin:8px 0 0;font-size:14px;color:#334}
.brand{float:right;text-transform:uppercase;font-size:12px;color:#1d4ed8}.line{font-family:ui-monospace,monospace;font-size:15px;line-height:1.6}.grp{white-space:nowrap}
#pix-qr{display:block;max-width:100%;height:auto;margin:0 auto}
#boleto-barcode{max-width:100%;height:60px;display:block;margin:8px 0}.done{text-align:center}.done h2{color:#15803d}
.close{position:absolute;right:8px;top:6px;border:0;background:none;font-size:28px;line-height:1;padding:6px 10px;cursor:pointer;color:#445}
.sandbox{margin-top:16px;font-size:12px;color:#7c2d12;background:#fef3c7;padding:6px 10px;border-radius:6px}
.unavailable h1{color:#b91c1c}.boleto,.receipt{max-width:780px;margin:24px auto;background:#fff;padding:24px}
@media (max-width:520px){.boleto,.receipt{margin:0;padding:12px}}
.slip{width:100%;border-collapse:collapse;margin:12px 0}.slip th,.slip td{border:1px solid #999;padding:6px;text-align:left;font-size:14px;overflow-wrap:anywhere}.slip th{background:#f1f1f1;width:30%}
.slip th{overflow-wrap:normal;word-break:normal;hyphens:manual}.slip td.id{font-family:ui-monospace,monospace;font-size:13px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.slip-part{margin:0 0 12px}.bk-head{display:flex;align-items:flex-end;gap:0;border-bottom:2px solid #000;flex-wrap:wrap}
.bk-name{font-weight:700;font-size:18px;padding:4px 8px 4px 0}.bk-code{font-weight:700;font-size:20px;padding:2px 10px;border-left:2px solid #000;border-right:2px solid #000}
.bk-line{flex:1;text-align:right;font-weight:700;padding:4px 0 4px 8px;font-size:14px}
.grid{display:grid;grid-template-columns:repeat(4,1fr);border-left:1px solid #000}.c{border-right:1px solid #000;border-bottom:1px solid #000;padding:2px 6px;min-width:0}
.c .l{display:block;font-size:11px;color:#333}.c .v{display:block;font-size:14px;overflow-wrap:anywhere}.c.r .v{text-align:right;font-weight:600}
.w2{grid-column:span 2}.w3{grid-column:span 3}.w4{grid-column:span 4}
@media (max-width:520px){.grid{grid-template-columns:1fr 1fr}.w3,.w4{grid-column:span 2}.w2{grid-column:span 2}}
.cut{border-top:1px dashed #000;margin:16px 0 8px;padding-top:2px;font-size:11px;text-align:right;color:#333}
.bk-foot{display:flex;justify-content:space-between;align-items:flex-start;gap:8px;margin-top:8px;flex-wrap:wrap}.bk-foot .barcode{max-width:100%;height:auto}.mech{font-size:11px;color:#333}
.pixbox{display:flex;align-items:center;gap:12px;flex-wrap:wrap}
p.no-print .pay{width:auto;padding:10px 24px}
@media print{.no-print{display:none}body{background:#fff}.boleto,.receipt{box-shadow:none;margin:0}}
`;
