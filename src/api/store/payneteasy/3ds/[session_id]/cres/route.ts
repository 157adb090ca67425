/** POST /store/payneteasy/3ds/:session_id/cres — the 3DS 2 challenge result: { cRes } → TDS_UPLOAD_CRES_RESULT (see ../../upload.ts). */
import { uploadRoute } from "../../upload"

export const POST = uploadRoute("cres")
