// The owner's area's entry (/admin): its stylesheet. Its pages work without JavaScript; islands join here when an
// admin page needs one (their code never reaches the storefront's pages).
import '../ui/admin/admin.css';
import { startEditorFrames } from './admin/editorFrames';
import { startLivePreview } from './admin/designPreview';

startLivePreview();
startEditorFrames();
