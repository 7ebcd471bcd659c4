/** Route modules of find care and contact (loaded on demand). */
import { ContactUsPage, FindCareFiltersPage, FindCarePage, FindCareSearchPage } from '@/features/find-care/components/find-care-pages';

export const FindCareRoute = FindCarePage;
export const FindCareSearchRoute = FindCareSearchPage;
export const FindCareFiltersRoute = FindCareFiltersPage;
export const ContactUsRoute = ContactUsPage;
