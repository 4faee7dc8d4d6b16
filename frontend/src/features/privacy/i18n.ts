/** The privacy page's strings live with the shared privacy dialogs (shared/i18n/privacy.{en,es}.json). */
import '../../shared/privacy/strings';
