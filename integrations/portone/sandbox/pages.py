"""The sandbox's browser side: the PG window, the receipt page and an ``IMP`` stand-in script."""

from __future__ import annotations

import json
from collections.abc import Mapping
from html import escape

from integrations.portone.sandbox.cards import DEFAULT_TEST_CARD
from integrations.portone.sandbox.records import PaymentRecord


def _json_for_script(value: object) -> str:
    """JSON that is safe inside a <script> element."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


_CHECKOUT_SCRIPT = """
const params = JSON.parse(document.getElementById("params").textContent);
const buttons = document.querySelectorAll("button[data-action]");

function deliver(rsp) {
  const message = {source: "portone-sandbox", type: "request_pay", response: rsp};
  if (window.opener && !window.opener.closed) {
    window.opener.postMessage(message, "*");
    window.close();
    return;
  }
  if (window.parent && window.parent !== window) {
    window.parent.postMessage(message, "*");
    return;
  }
  const redirect = params.m_redirect_url || "";
  if (/^https?:\\/\\//i.test(redirect)) {
    const url = new URL(redirect);
    url.searchParams.set("imp_uid", rsp.imp_uid || "");
    url.searchParams.set("merchant_uid", rsp.merchant_uid || "");
    url.searchParams.set("imp_success", rsp.success ? "true" : "false");
    if (!rsp.success) {
      url.searchParams.set("error_code", rsp.error_code || "");
      url.searchParams.set("error_msg", rsp.error_msg || "");
    }
    window.location.assign(url.toString());
    return;
  }
  const out = document.getElementById("result");
  out.textContent = JSON.stringify(rsp, null, 2);
  out.hidden = false;
}

async function finish(action) {
  buttons.forEach((b) => { b.disabled = true; });
  const body = Object.assign({}, params, {action: action});
  const card = document.getElementById("card_number");
  if (card && card.value) { body.card_number = card.value; }
  let rsp;
  try {
    const response = await fetch("checkout", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body),
    });
    rsp = await response.json();
  } catch (error) {
    rsp = {success: false, imp_success: false, imp_uid: null,
           merchant_uid: params.merchant_uid || null,
           error_code: "NETWORK", error_msg: String(error)};
  }
  deliver(rsp);
}

buttons.forEach((b) => b.addEventListener("click", () => finish(b.dataset.action)));
"""


def render_checkout(params: Mapping[str, str]) -> str:
    """The page standing in for the PG window of ``IMP.request_pay``."""
    pay_method = params.get("pay_method") or "card"
    rows = "".join(
        f"<tr><th scope='row'>{escape(label)}</th><td>{escape(params.get(key) or '-')}</td></tr>"
        for label, key in (
            ("Order", "name"),
            ("Amount", "amount"),
            ("Currency", "currency"),
            ("Payment method", "pay_method"),
            ("Gateway", "pg"),
            ("merchant_uid", "merchant_uid"),
            ("Buyer", "buyer_email"),
        )
    )
    card_field = ""
    if pay_method == "card":
        card_field = (
            "<p><label for='card_number'>Card number</label> "
            f"<input id='card_number' name='card_number' inputmode='numeric' "
            f"autocomplete='off' value='{escape(DEFAULT_TEST_CARD)}'></p>"
            "<p class='hint'>Test cards: ending 0002 is declined; ending 0003 is approved but "
            "later recurring charges fail (insufficient funds); any other 16 digits is "
            "approved.</p>"
        )
    approve_label = "Issue virtual account" if pay_method == "vbank" else "Approve"
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>PortOne sandbox checkout</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 28rem; margin: 2rem auto; padding: 0 1rem; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #ddd; }}
.hint {{ color: #555; font-size: .85rem; }}
button {{ margin: .25rem .25rem 0 0; padding: .5rem 1rem; }}
pre {{ background: #f4f4f4; padding: .5rem; overflow: auto; }}
</style>
</head>
<body>
<main>
<h1>PortOne sandbox</h1>
<p>This page plays the payment gateway's window. No real money moves.</p>
<table>{rows}</table>
{card_field}
<p>
<button type="button" data-action="approve">{approve_label}</button>
<button type="button" data-action="decline">Decline</button>
<button type="button" data-action="close">Close</button>
</p>
<pre id="result" hidden aria-live="polite"></pre>
</main>
<script type="application/json" id="params">{_json_for_script(dict(params))}</script>
<script>{_CHECKOUT_SCRIPT}</script>
</body>
</html>
"""


def render_receipt(record: PaymentRecord) -> str:
    """A plain receipt for a payment (what receipt_url shows)."""
    fields = (
        ("imp_uid", record.imp_uid),
        ("merchant_uid", record.merchant_uid),
        ("name", record.name),
        ("amount", f"{record.amount} {record.currency}"),
        ("cancelled", f"{record.cancel_amount} {record.currency}"),
        ("status", record.status),
        ("pay_method", record.pay_method),
        ("card", f"{record.card_name or ''} {record.card_number or ''}".strip()),
        ("virtual account", f"{record.vbank_name or ''} {record.vbank_num or ''}".strip()),
    )
    rows = "".join(
        f"<tr><th scope='row'>{escape(label)}</th><td>{escape(str(value or '-'))}</td></tr>" for label, value in fields
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<title>PortOne sandbox receipt</title></head><body><main>"
        f"<h1>Sandbox receipt</h1><table>{rows}</table></main></body></html>"
    )


IMP_SCRIPT = """(function () {
  "use strict";
  var script = document.currentScript;
  var base = script ? script.src.replace(/\\/sandbox\\/iamport\\.js(\\?.*)?$/, "") : "";
  var origin = base ? new URL(base, window.location.href).origin : window.location.origin;
  var pending = null;

  function settle(rsp) {
    if (!pending) { return; }
    var callback = pending;
    pending = null;
    callback(rsp);
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.origin !== origin || !data || data.source !== "portone-sandbox") { return; }
    settle(data.response);
  });

  window.IMP = {
    init: function () {},
    request_pay: function (params, callback) {
      var query = new URLSearchParams();
      Object.keys(params || {}).forEach(function (key) {
        var value = params[key];
        if (value === undefined || value === null) { return; }
        query.set(key, typeof value === "object" ? JSON.stringify(value) : String(value));
      });
      var url = base + "/sandbox/checkout?" + query.toString();
      var popup = window.open(url, "portone_sandbox_checkout", "width=480,height=720");
      if (!popup) { window.location.assign(url); return; }
      var mine = typeof callback === "function" ? callback : function () {};
      pending = mine;
      var merchantUid = (params || {}).merchant_uid || null;
      var timer = window.setInterval(function () {
        if (!popup.closed) { return; }
        window.clearInterval(timer);
        window.setTimeout(function () {
          // Only this request: its window's message may have settled it, and a later one may be pending.
          if (pending !== mine) { return; }
          settle({success: false, imp_success: false, imp_uid: null, merchant_uid: merchantUid,
                  error_code: "USER_CANCEL", error_msg: "the payment window was closed"});
        }, 500);
      }, 400);
    }
  };
})();
"""
