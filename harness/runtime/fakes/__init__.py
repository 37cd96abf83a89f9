"""runtime/fakes"""
