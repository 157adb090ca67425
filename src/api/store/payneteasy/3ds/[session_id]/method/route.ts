/** POST /store/payneteasy/3ds/:session_id/method — the 3DS Method result: { threeDSCompInd: "Y"|"N"|"U", threeDSServerTransID?, browser?: { browserAcceptHeader, browserIP, browserJavaEnabled, browserJavascriptEnabled, browserLanguage, browserColorDepth, browserScreenHeight, browserScreenWidth, browserTZ, browserUserAgent } } → TDS_UPLOAD_METHOD_URL_RESULT (see ../../upload.ts). */
import { uploadRoute } from "../../upload"

export const POST = uploadRoute("method")
