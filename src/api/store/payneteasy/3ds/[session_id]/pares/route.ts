/** POST /store/payneteasy/3ds/:session_id/pares — the 3DS 1 challenge result: { paRes, MD? } → TDS_UPLOAD_PARES_RESULT (see ../../upload.ts). */
import { uploadRoute } from "../../upload"

export const POST = uploadRoute("pares")
