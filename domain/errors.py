"""The one catalogue of error codes (spec section 8): code, HTTP status, ko/en/ja text."""

from __future__ import annotations

from enum import Enum

from events.values import Language


class ErrorCode(Enum):
    """Every code the API can answer with. The value is the wire ``errorCode``."""

    def __new__(cls, code: int | str, status: int, ko: str, en: str, ja: str) -> ErrorCode:
        member = object.__new__(cls)
        member._value_ = code
        member.status = status
        member.messages = {Language.KO: ko, Language.EN: en, Language.JA: ja}
        return member

    status: int
    messages: dict[Language, str]

    UNAUTHORIZED = (
        401,
        401,
        "인증되지 않은 사용자입니다.",
        "You are not authorised.",
        "認証されていないユーザーです。",
    )
    FORBIDDEN = (
        403,
        403,
        "접근 권한이 없습니다.",
        "You do not have permission to access this.",
        "アクセス権限がありません。",
    )
    NOT_FOUND = (
        404,
        404,
        "정보가 존재하지 않습니다.",
        "The information does not exist.",
        "情報が存在しません。",
    )
    TOO_MANY_PAGE_REQUESTS = (
        429,
        429,
        "페이지 요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.",
        "Too many page requests. Please try again shortly.",
        "ページのリクエストが多すぎます。しばらくしてから再度お試しください。",
    )
    SERVER_ERROR = (
        500,
        500,
        "서버 오류가 발생했습니다. 관리자에게 문의해 주세요.",
        "A server error occurred. Please contact the administrator.",
        "サーバーエラーが発生しました。管理者にお問い合わせください。",
    )
    PAYMENT_STOPPED = (
        "STOP",
        400,
        "사용자가 결제를 취소했습니다.",
        "The payment was cancelled by the user.",
        "ユーザーが決済をキャンセルしました。",
    )
    EMPTY_PARAMETER = (
        -1,
        400,
        "필수 값이 비어 있습니다.",
        "A required value is empty.",
        "必須の値が空です。",
    )
    INVALID_VALUE = (-2, 400, "올바르지 않은 값입니다.", "The value is invalid.", "無効な値です。")
    DUPLICATE_PARAMETER = (-3, 400, "중복된 값입니다.", "The value is duplicated.", "重複した値です。")
    TOO_MANY_REQUESTS = (
        -4,
        429,
        "요청이 너무 많습니다. 잠시 후 다시 시도해 주세요.",
        "Too many requests. Please try again later.",
        "リクエストが多すぎます。しばらくしてから再度お試しください。",
    )
    LICENSE_KEY_UNUSABLE = (
        -100,
        400,
        "사용할 수 없는 라이선스 키입니다.",
        "This licence key cannot be used.",
        "使用できないライセンスキーです。",
    )
    LICENSE_KEY_IN_USE = (
        -105,
        409,
        "이미 다른 사용자가 사용 중인 키입니다.",
        "This key is already in use by someone else.",
        "このキーは既に他のユーザーが使用しています。",
    )
    # Not in the spec's catalogue (its -105 says someone else holds the key, which misled a customer whose own
    # licence was full): every device slot of the licence is taken.
    DEVICE_LIMIT_REACHED = (
        -107,
        409,
        "이 라이선스에 등록할 수 있는 기기 수를 모두 사용했습니다. "
        "라이선스 관리에서 쓰지 않는 기기를 해제하거나 더 많은 기기로 업그레이드해 주세요.",
        "Every device this licence allows is registered. Remove a device you no longer use under licence "
        "management, or upgrade to more devices.",
        "このライセンスで登録できる端末数の上限に達しています。ライセンス管理で使っていない端末を解除するか、"
        "端末数の多いプランにアップグレードしてください。",
    )
    LICENSE_KEY_ALREADY_REGISTERED = (
        -106,
        409,
        "이미 등록된 키입니다.",
        "This key is already registered.",
        "このキーは既に登録されています。",
    )
    LICENSE_NOT_FOUND = (
        -108,
        404,
        "라이선스가 존재하지 않습니다.",
        "The licence does not exist.",
        "ライセンスが存在しません。",
    )
    NOTHING_PURCHASABLE = (
        -109,
        404,
        "요청하신 정보를 찾을 수 없습니다. 홈으로 이동합니다.",
        "The requested information was not found. Going home.",
        "リクエストされた情報が見つかりません。ホームに移動します。",
    )
    ALREADY_IN_OPEN_BETA = (
        -114,
        409,
        "이미 오픈 베타에 참여하셨습니다.",
        "You have already joined the open beta.",
        "既にオープンベータに参加しています。",
    )
    PAYMENT_REFUSED = (
        -300,
        402,
        "카드사 또는 결제 대행사에서 승인을 거절했습니다.",
        "The card company or payment gateway refused the approval.",
        "カード会社または決済代行会社が承認を拒否しました。",
    )
    PAYMENT_DIFFERS_FROM_INIT = (
        -301,
        409,
        "결제 요청 정보와 최종 결제 정보가 다릅니다.",
        "The final payment differs from the payment request.",
        "決済リクエストと最終決済の情報が異なります。",
    )
    INVALID_PRODUCT_AT_INIT = (
        -302,
        400,
        "상품 정보가 올바르지 않습니다. (옵션 또는 가격 불일치)",
        "The product information is invalid (option or price mismatch).",
        "商品情報が正しくありません。(オプションまたは価格の不一致)",
    )
    CHECK_CARD_HELD = (
        -303,
        402,
        "카드 보유 여부를 확인해 주세요.",
        "Please check that you hold the card.",
        "カードの保有状況をご確認ください。",
    )
    RESERVED_PAYMENT_MISSING = (
        -304,
        404,
        "예약된 결제가 존재하지 않습니다.",
        "The reserved payment does not exist.",
        "予約された決済が存在しません。",
    )
    CHECK_CARD_INFO = (
        -305,
        400,
        "카드 정보를 정확히 입력했는지 확인해 주세요.",
        "Please check the card information you entered.",
        "入力したカード情報をご確認ください。",
    )
    AUTO_PAYMENT_ALREADY_SET = (
        -306,
        409,
        "이미 자동 결제가 설정되어 있습니다.",
        "Automatic payment is already set up.",
        "既に自動決済が設定されています。",
    )
    BILLING_KEY_ALREADY_REGISTERED = (
        -308,
        409,
        "이미 등록된 결제 수단입니다.",
        "This payment method is already registered.",
        "既に登録された決済手段です。",
    )
    # Not in the spec's catalogue: a tax invoice (세금계산서) is issued for a bank-transfer or virtual-account payment
    # only; a card payment's card slip is its evidence (docs/papers.md).
    TAX_INVOICE_NOT_FOR_CARD = (
        -320,
        409,
        "카드 결제는 세금계산서를 발행하지 않습니다. 카드 매출전표가 증빙이 됩니다.",
        "A tax invoice is issued for bank transfers and virtual accounts only: a card payment's card slip is its "
        "evidence.",
        "カード決済には税金計算書を発行しません。カードの売上票が証憑となります。",
    )
    # One supply, one paper (부가가치세법 제33조 제2항, 시행령 제71조; docs/papers.md): a payment whose buyer took a
    # cash receipt is not given a tax invoice as well.
    TAX_INVOICE_AFTER_CASH_RECEIPT = (
        -380,
        409,
        "이 결제에는 현금영수증을 발급하기로 했으므로 세금계산서를 함께 발행할 수 없습니다(부가가치세법).",
        "This payment takes a cash receipt, so it cannot have a tax invoice as well: under Korea's VAT Act one "
        "supply gets one of the two.",
        "この決済には現金領収証を発行するため、税金計算書は併せて発行できません（韓国の付加価値税法）。",
    )
    # Not in the spec's catalogue: refunds (docs/payments.md). A refund is reserved on the payment before the
    # gateway is asked, so a second one waits for the first to be settled.
    REFUND_IN_PROGRESS = (
        -330,
        409,
        "이 결제의 환불이 진행 중입니다. 환불이 끝난 뒤 다시 시도해 주세요.",
        "A refund of this payment is in progress. Try again once it has been settled.",
        "この決済の返金を処理中です。返金が完了してから再度お試しください。",
    )
    REFUND_REFUSED_BY_GATEWAY = (
        -331,
        409,
        "결제사가 환불을 거절했습니다. 결제사에서 이미 환불된 금액이 있으면 기록한 뒤 다시 시도해 주세요.",
        "The payment gateway refused the refund. If part of the payment was refunded at the gateway, record that "
        "refund first, then try again.",
        "決済会社が返金を拒否しました。決済会社側で返金済みの金額があれば記録してから再度お試しください。",
    )
    REFUND_PENDING_AT_GATEWAY = (
        -332,
        503,
        "결제사의 응답이 없어 환불이 처리 중입니다. 결제사에서 확인되는 대로 기록하고 메일로 알려 드립니다.",
        "The payment gateway did not answer, so the refund is pending. It is recorded as soon as the gateway "
        "confirms it, and you will be told by mail.",
        "決済会社から応答がないため、返金は処理中です。決済会社で確認でき次第記録し、メールでお知らせします。",
    )
    # Not in the spec's catalogue: why the 30-day money-back guarantee does not cover a licence (docs/money-back.md).
    MONEY_BACK_TOO_LATE = (
        -340,
        400,
        "구매 후 30일이 지나 환불 보장 대상이 아닙니다.",
        "More than 30 days have passed since the purchase, so the money-back guarantee no longer covers it.",
        "購入から30日を過ぎたため、返金保証の対象外です。",
    )
    MONEY_BACK_NOT_A_FIRST_PURCHASE = (
        -341,
        400,
        "환불 보장은 라이선스의 첫 구매에만 적용됩니다. 갱신 결제는 대상이 아닙니다.",
        "The money-back guarantee covers the first purchase of a licence, not its renewals.",
        "返金保証はライセンスの初回購入のみが対象です。更新の決済は対象外です。",
    )
    MONEY_BACK_USED_BEFORE = (
        -342,
        400,
        "이 제품의 환불 보장은 이미 사용하셨습니다. 환불 보장은 고객당 제품별로 한 번입니다.",
        "You have already used the money-back guarantee for this product: it is given once per customer and product.",
        "この製品の返金保証はすでにご利用済みです。返金保証はお客様ごと、製品ごとに1回です。",
    )
    MONEY_BACK_APP_STORE = (
        -343,
        400,
        "App Store에서 구매한 라이선스는 Apple에 환불을 요청해 주세요.",
        "A licence bought in the App Store is refunded by Apple: ask Apple for the refund.",
        "App Storeで購入したライセンスの返金はAppleにお申し込みください。",
    )
    MONEY_BACK_NOTHING_LEFT = (
        -344,
        400,
        "환불할 금액이 남아 있지 않습니다.",
        "Nothing of this purchase is left to refund.",
        "返金できる金額が残っていません。",
    )
    # Not in the spec's catalogue: purchases made in the apps' stores (docs/app-stores.md).
    STORE_PROOF_REFUSED = (
        -350,
        400,
        "스토어의 구매 증명을 확인할 수 없습니다.",
        "The store's proof of purchase could not be verified.",
        "ストアの購入証明を確認できません。",
    )
    STORE_PURCHASE_OF_ANOTHER = (
        -351,
        409,
        "이 스토어 구매는 다른 계정에 연결되어 있습니다.",
        "This store purchase is linked to another account.",
        "このストアでの購入は別のアカウントに連携されています。",
    )
    STORE_UNAVAILABLE = (
        -352,
        503,
        "스토어가 응답하지 않습니다. 잠시 후 다시 시도해 주세요.",
        "The store did not answer. Please try again shortly.",
        "ストアから応答がありません。しばらくしてから再度お試しください。",
    )
    # Not in the spec's catalogue: consent before a price rise (docs/catalogue.md).
    PRICE_RISE_NOT_ASKED = (
        -360,
        409,
        "답변을 기다리는 가격 변경이 없습니다.",
        "No price change awaits your answer.",
        "ご回答をお待ちしている価格変更はありません。",
    )
    PRICE_RISE_NOT_AGREED = (
        -361,
        409,
        "인상된 가격에 동의하지 않으셔서 결제하지 않습니다.",
        "The new price was not agreed to, so nothing is charged.",
        "新しい価格にご同意いただいていないため、決済は行いません。",
    )
    EMAIL_OR_PASSWORD_MISMATCH = (
        -400,
        401,
        "이메일 또는 비밀번호가 일치하지 않습니다.",
        "The email or password does not match.",
        "メールアドレスまたはパスワードが一致しません。",
    )
    ACCOUNT_NOT_APPROVED = (
        -401,
        403,
        "이메일 인증이 필요한 계정입니다.",
        "This account needs email verification.",
        "メール認証が必要なアカウントです。",
    )
    EMAIL_ALREADY_REGISTERED = (
        -402,
        409,
        "이미 가입된 이메일입니다.",
        "This email is already registered.",
        "既に登録されているメールアドレスです。",
    )
    PASSWORD_TOKEN_EXPIRED = (
        -405,
        400,
        "만료된 링크입니다.",
        "This link has expired.",
        "期限切れのリンクです。",
    )
    PASSWORD_DIFFERS = (
        -406,
        400,
        "현재 비밀번호와 다릅니다.",
        "This differs from the current password.",
        "現在のパスワードと異なります。",
    )
    EMAIL_UNUSABLE = (
        -407,
        400,
        "사용할 수 없는 이메일입니다.",
        "This email cannot be used.",
        "使用できないメールアドレスです。",
    )
    NICKNAME_IN_USE = (
        -411,
        409,
        "이미 사용 중인 닉네임입니다.",
        "This nickname is already in use.",
        "このニックネームは既に使用されています。",
    )
    COUPON_NOT_FOUND = (
        -601,
        404,
        "존재하지 않는 쿠폰 코드입니다.",
        "The coupon code does not exist.",
        "存在しないクーポンコードです。",
    )
    COUPON_USAGE_EXCEEDED = (
        -602,
        409,
        "코드 사용 횟수를 초과했습니다.",
        "The code has been used too many times.",
        "コードの使用回数を超えました。",
    )
    COUPON_UNUSABLE = (
        -603,
        400,
        "사용할 수 없는 쿠폰입니다.",
        "This coupon cannot be used.",
        "使用できないクーポンです。",
    )
    CODE_CANNOT_BE_USED = (
        -604,
        400,
        "사용할 수 없는 코드입니다.",
        "This code cannot be used.",
        "使用できないコードです。",
    )
    CODE_EXPIRED = (-605, 400, "만료된 코드입니다.", "This code has expired.", "期限切れのコードです。")
    PROMOTION_ALREADY_USED = (
        -612,
        409,
        "이미 사용한 프로모션 코드입니다.",
        "This promotion code has already been used.",
        "既に使用したプロモーションコードです。",
    )
    PROMOTION_ALREADY_USED_BY_ACCOUNT = (
        -613,
        409,
        "이미 사용한 프로모션 코드입니다.",
        "This promotion code has already been used.",
        "既に使用したプロモーションコードです。",
    )
    PROMOTION_ALREADY_USED_BY_LICENSE = (
        -614,
        409,
        "이미 사용한 프로모션 코드입니다.",
        "This promotion code has already been used.",
        "既に使用したプロモーションコードです。",
    )
    PROMOTION_ALREADY_USED_BY_EMAIL = (
        -615,
        409,
        "이미 사용한 프로모션 코드입니다.",
        "This promotion code has already been used.",
        "既に使用したプロモーションコードです。",
    )
    EMAIL_CANNOT_BE_REGISTERED = (
        -700,
        400,
        "등록할 수 없는 이메일입니다.",
        "This email cannot be registered.",
        "登録できないメールアドレスです。",
    )
    SERVER_ERROR_CONTACT_ADMIN = (
        -1002,
        500,
        "서버 오류가 발생했습니다. 관리자에게 문의해 주세요.",
        "A server error occurred. Please contact the administrator.",
        "サーバーエラーが発生しました。管理者にお問い合わせください。",
    )
    IMAGE_TYPE_NOT_ALLOWED = (
        -1401,
        400,
        "이미지는 jpg, png, gif 파일만 가능합니다.",
        "Images must be jpg, png or gif files.",
        "画像はjpg、png、gifファイルのみ可能です。",
    )
    IMAGE_TOO_LARGE = (
        -1402,
        400,
        "이미지는 3MB 이하만 가능합니다.",
        "Images must be 3MB or smaller.",
        "画像は3MB以下のみ可能です。",
    )
    TOO_MANY_IMAGES = (
        -1403,
        400,
        "이미지는 최대 5개까지 가능합니다.",
        "You can attach at most 5 images.",
        "画像は最大5枚まで可能です。",
    )
    DEVICE_NOT_FOUND = (
        -1404,
        404,
        "기기가 존재하지 않습니다.",
        "The device does not exist.",
        "デバイスが存在しません。",
    )
    NAME_REQUIRED_FOR_SSO = (
        -2101,
        400,
        "이름을 먼저 입력해 주세요.",
        "Please enter your name first.",
        "先にお名前を入力してください。",
    )
    PAYMENT_FAILED = (
        -10002,
        500,
        "결제에 실패했습니다. 관리자에게 문의해 주세요.",
        "The payment failed. Please contact the administrator.",
        "決済に失敗しました。管理者にお問い合わせください。",
    )

    # Per-context names over the same wire codes: the spec has one code where we refuse for several reasons, so
    # each reason gets its own name, an alias of the spec's member (the same member: the same errorCode, status
    # and text, and the catalogue lists each code once). Raise the name that says why.
    NOTHING_PAST_DUE = AUTO_PAYMENT_ALREADY_SET  # pay now with nothing past due
    SUBSCRIPTION_NOT_ENDED = AUTO_PAYMENT_ALREADY_SET  # re-subscribe while it still runs, or after a lifetime upgrade
    AUTO_RENEWAL_NOT_OFF = AUTO_PAYMENT_ALREADY_SET  # resume what is not cancelled
    CHARGE_NOT_CURRENT = AUTO_PAYMENT_ALREADY_SET  # record a charge the subscription no longer wants
    LICENCE_REFUNDED = LICENSE_KEY_UNUSABLE  # act on a subscription whose licence was refunded
    OPEN_BETA_ENDED = SERVER_ERROR_CONTACT_ADMIN  # join the open beta after it ended (answered as 410)
    COUPON_CHECK_NO_RESPONSE = (
        -120122,
        500,
        "쿠폰 조건 확인에 실패했습니다.",
        "The coupon condition check failed.",
        "クーポン条件の確認に失敗しました。",
    )

    @classmethod
    def for_value(cls, value: int | str) -> ErrorCode | None:
        """The member whose wire code is ``value``, if any."""
        for member in cls:
            if member.value == value:
                return member
        return None

    def message(self, language: Language | str | None = None) -> str:
        """The text for this code in the given language (Korean when unknown)."""
        try:
            return self.messages[Language(language)] if language else self.messages[Language.KO]
        except ValueError:
            return self.messages[Language.KO]


FALLBACK_MESSAGE = {
    Language.KO: "서버 응답 오류입니다. 관리자에게 문의해 주세요.",
    Language.EN: "Server response error. Please contact the administrator.",
    Language.JA: "サーバー応答エラーです。管理者にお問い合わせください。",
}


class DomainError(Exception):
    """A business rule refused a command; carries the catalogue code to answer with.

    ``status`` replaces the code's own HTTP status where the same code means something else; ``retry_after``
    is how many seconds a refused caller should wait before trying again (sent as Retry-After).
    """

    def __init__(
        self, code: ErrorCode, detail: str = "", *, status: int | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(detail or code.name)
        self.code = code
        self.detail = detail
        self.status = status or code.status
        self.retry_after = retry_after
